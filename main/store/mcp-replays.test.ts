import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_MCP_REPLAYS, MCP_REPLAY_RETENTION_MS } from "../util/limits.js";
import { openLocalDb, type LocalDb } from "./local-db.js";
import { findReplay, insertReplay, pruneReplays } from "./mcp-replays.js";

let db: LocalDb;
let dir: string;
afterEach(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(): LocalDb {
  dir = mkdtempSync(join(tmpdir(), "chopin-replays-"));
  db = openLocalDb(dir);
  return db;
}

const row = (key: string, createdAt: number) => ({ idempotencyKey: key, tool: "create_document", fingerprint: "f", resultJson: "{}", createdAt });

describe("pruneReplays", () => {
  it("keeps a result exactly MCP_REPLAY_RETENTION_MS old and drops one a millisecond older", () => {
    open();
    const now = Date.UTC(2026, 10, 30);
    insertReplay(db, row("at-edge", now - MCP_REPLAY_RETENTION_MS));
    insertReplay(db, row("past-edge", now - MCP_REPLAY_RETENTION_MS - 1));
    expect(pruneReplays(db, now)).toBe(1);
    expect(findReplay(db, "at-edge")).not.toBeNull();
    expect(findReplay(db, "past-edge")).toBeNull();
  });

  it("keeps the newest maxRows and drops the oldest beyond them", () => {
    open();
    const now = Date.UTC(2026, 10, 30);
    for (let i = 0; i < 4; i++) insertReplay(db, row(`k${i}`, now - 1000 + i));
    expect(pruneReplays(db, now, MCP_REPLAY_RETENTION_MS, 4)).toBe(0);
    expect(pruneReplays(db, now, MCP_REPLAY_RETENTION_MS, 3)).toBe(1);
    expect(findReplay(db, "k0")).toBeNull();
    expect(findReplay(db, "k1")).not.toBeNull();
  });

  it("by default keeps MAX_MCP_REPLAYS results and drops the one more", () => {
    open();
    const now = Date.UTC(2026, 10, 30);
    db.transaction(() => {
      for (let i = 0; i < MAX_MCP_REPLAYS; i++) insertReplay(db, row(`k${i}`, now - MAX_MCP_REPLAYS + i));
    })();
    expect(pruneReplays(db, now)).toBe(0);
    insertReplay(db, row("newest", now));
    expect(pruneReplays(db, now)).toBe(1);
    expect(findReplay(db, "k0")).toBeNull();
    expect(findReplay(db, "newest")).not.toBeNull();
  });
});
