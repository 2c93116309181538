/**
 * MCP sessions: the client name kept per session (MAX_MCP_CLIENT_NAME_CHARS, cleaned: it lands in every document's
 * provenance), at most MAX_MCP_SESSIONS of them, kept across restarts in the local database; an id never issued or
 * forgotten reads as unknown (null), so the server can tell the client to initialize again.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Database } from "better-sqlite3";
import { MAX_MCP_CLIENT_NAME_CHARS } from "../../shared/limits.js";
import { MAX_MCP_SESSIONS } from "../util/limits.js";
import { openLocalDb } from "../store/local-db.js";
import { readOnlyDatabase } from "../store/full-database.js";
import { ClientSessions, UNKNOWN_CLIENT } from "./sessions.js";

const opened: { db: Database; dir: string }[] = [];
function database(): Database {
  const dir = mkdtempSync(join(tmpdir(), "chopin-sessions-"));
  const db = openLocalDb(dir);
  opened.push({ db, dir });
  return db;
}
afterEach(() => {
  for (const { db, dir } of opened.splice(0)) {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const stored = (db: Database) => (db.prepare("SELECT count(*) AS n FROM mcp_sessions").get() as { n: number }).n;

describe("ClientSessions client names", () => {
  it("keeps a MAX_MCP_CLIENT_NAME_CHARS name whole and cuts one more character off a longer one", () => {
    const sessions = new ClientSessions(null);
    const atBound = "n".repeat(MAX_MCP_CLIENT_NAME_CHARS);
    expect(sessions.nameOf(sessions.open(atBound))).toBe(atBound);
    expect(sessions.nameOf(sessions.open(`${atBound}X`))).toBe(atBound);
  });

  it("measures the bound after trimming, and reads a blank name as unknown", () => {
    const sessions = new ClientSessions(null);
    const atBound = "n".repeat(MAX_MCP_CLIENT_NAME_CHARS);
    expect(sessions.nameOf(sessions.open(`  ${atBound}  `))).toBe(atBound);
    expect(sessions.nameOf(sessions.open("   "))).toBe(UNKNOWN_CLIENT);
    expect(sessions.nameOf(sessions.open(42))).toBe(UNKNOWN_CLIENT);
  });

  it("drops control and direction-override characters, and mends half a surrogate pair", () => {
    const sessions = new ClientSessions(null);
    expect(sessions.nameOf(sessions.open("evil\u0000name\n\u202eplanner"))).toBe("evil name planner");
    expect(sessions.nameOf(sessions.open("agent\ud800"))).toBe("agent\ufffd");
    expect(sessions.nameOf(sessions.open("\u200f\u0007"))).toBe(UNKNOWN_CLIENT);
    // A cut at the bound never leaves half of an emoji.
    const name = `${"n".repeat(MAX_MCP_CLIENT_NAME_CHARS - 1)}😀`;
    expect(sessions.nameOf(sessions.open(name))).toBe("n".repeat(MAX_MCP_CLIENT_NAME_CHARS - 1));
  });
});

describe("ClientSessions ids", () => {
  it("reads no id as UNKNOWN_CLIENT and an id it never issued as null", () => {
    const sessions = new ClientSessions(null);
    expect(sessions.nameOf(undefined)).toBe(UNKNOWN_CLIENT);
    expect(sessions.nameOf("5b1c2f43-0000-4000-8000-000000000000")).toBeNull();
  });

  it(`remembers at most MAX_MCP_SESSIONS (${MAX_MCP_SESSIONS}), oldest forgotten first, in memory and on disk`, () => {
    const db = database();
    const sessions = new ClientSessions(db);
    const first = sessions.open("first");
    const second = sessions.open("second");
    for (let i = 0; i < MAX_MCP_SESSIONS - 2; i += 1) sessions.open(`c${i}`);
    expect(sessions.size).toBe(MAX_MCP_SESSIONS);
    expect(stored(db)).toBe(MAX_MCP_SESSIONS);
    expect(sessions.nameOf(first)).toBe("first");
    sessions.open("one more");
    expect(sessions.size).toBe(MAX_MCP_SESSIONS);
    expect(stored(db)).toBe(MAX_MCP_SESSIONS);
    expect(sessions.nameOf(first)).toBeNull();
    expect(sessions.nameOf(second)).toBe("second");
    // A restart reads the same MAX_MCP_SESSIONS back.
    const again = new ClientSessions(db);
    expect(again.size).toBe(MAX_MCP_SESSIONS);
    expect(again.nameOf(first)).toBeNull();
    expect(again.nameOf(second)).toBe("second");
  });

  it("keeps a session across a restart, and forgets a closed one there too", () => {
    const db = database();
    const before = new ClientSessions(db);
    const kept = before.open("claude-code");
    const closed = before.open("codex");
    before.close(closed);
    expect(before.nameOf(closed)).toBeNull();
    const after = new ClientSessions(db);
    expect(after.nameOf(kept)).toBe("claude-code");
    expect(after.nameOf(closed)).toBeNull();
  });

  it("keeps a session for this launch when the disk refuses to store it", () => {
    const db = database();
    const disk = readOnlyDatabase(db);
    const sessions = new ClientSessions(db);
    const id = sessions.open("copilot");
    expect(sessions.nameOf(id)).toBe("copilot");
    disk.writable();
    expect(stored(db)).toBe(0);
    expect(new ClientSessions(db).nameOf(id)).toBeNull();
  });
});
