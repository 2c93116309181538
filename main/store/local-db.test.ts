import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { localDbPath, openLocalDb, type LocalDb } from "./local-db.js";
import { LOCAL_DB_MIGRATIONS } from "./migrations.js";
import { migrate, schemaVersionOf } from "../../shared/node/sqlite-migrate.js";
import { getOrCreateSetting, getSetting, setSetting, deleteSetting } from "./settings.js";
import { bindTeam, forgetAllShares, forgetShare, markEntered, recordShare, sharesOf } from "./relay-shares.js";
import { findReplay, insertReplay } from "./mcp-replays.js";

const dirs: string[] = [];
const dbs: LocalDb[] = [];
function freshDb(): { db: LocalDb; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "chopin-db-"));
  dirs.push(dir);
  const db = openLocalDb(dir);
  dbs.push(db);
  return { db, dir };
}

afterEach(() => {
  for (const db of dbs.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("openLocalDb", () => {
  it("creates chopin.db in WAL mode at the latest schema", () => {
    const { db, dir } = freshDb();
    expect(db.name).toBe(localDbPath(dir));
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(schemaVersionOf(db)).toBe(LOCAL_DB_MIGRATIONS.length);
  });

  it("keeps chopin.db and its WAL files owner-only: they hold the relay and MCP tokens", () => {
    const umask = process.umask(0o022);
    try {
      const { db, dir } = freshDb();
      setSetting(db, "k", "v");
      for (const suffix of ["", "-wal", "-shm"]) expect(statSync(localDbPath(dir) + suffix).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(umask);
    }
  });

  it("reopening runs no step twice and keeps data", () => {
    const { db, dir } = freshDb();
    setSetting(db, "k", "v");
    db.close();
    const again = openLocalDb(dir);
    dbs.push(again);
    expect(getSetting(again, "k")).toBe("v");
    expect(schemaVersionOf(again)).toBe(LOCAL_DB_MIGRATIONS.length);
  });

  it("refuses a database from a newer app", () => {
    const { db, dir } = freshDb();
    db.pragma(`user_version = ${LOCAL_DB_MIGRATIONS.length + 1}`);
    db.close();
    expect(() => openLocalDb(dir)).toThrow(/newer version of Chopin/);
  });

  it("applies only pending steps, each atomically", () => {
    const db = new BetterSqlite3(":memory:");
    const steps = ["CREATE TABLE a (x INTEGER)", "CREATE TABLE b (y INTEGER); INSERT INTO nope VALUES (1)"];
    expect(() => migrate(db, steps)).toThrow();
    // Step 1 committed, step 2 rolled back entirely (table b absent).
    expect(schemaVersionOf(db)).toBe(1);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'b'").get()).toBeUndefined();
    expect(migrate(db, ["CREATE TABLE a (x INTEGER)", "CREATE TABLE b (y INTEGER)"])).toBe(2);
    db.close();
  });
});

describe("settings", () => {
  it("upserts, deletes and creates once", () => {
    const { db } = freshDb();
    expect(getSetting(db, "a")).toBeNull();
    setSetting(db, "a", "1");
    setSetting(db, "a", "2");
    expect(getSetting(db, "a")).toBe("2");
    deleteSetting(db, "a");
    expect(getSetting(db, "a")).toBeNull();
    let calls = 0;
    const make = () => `v${++calls}`;
    expect(getOrCreateSetting(db, "t", make)).toBe("v1");
    expect(getOrCreateSetting(db, "t", make)).toBe("v1");
    expect(calls).toBe(1);
  });

  it("the PRIMARY KEY refuses a second row for a key", () => {
    const { db } = freshDb();
    db.prepare("INSERT INTO settings (key, value) VALUES ('x', '1')").run();
    expect(() => db.prepare("INSERT INTO settings (key, value) VALUES ('x', '2')").run()).toThrow(/UNIQUE|PRIMARY/);
  });
});

describe("relay_shares", () => {
  const relayA = { url: "wss://a.example", teamIndexId: null };
  const ids = (db: LocalDb, scope: { url: string; teamIndexId: string | null }) => sharesOf(db, scope).map((row) => row.documentId);

  it("records a share once per relay, binds it to the team the relay names, and counts it for that team only", () => {
    const { db } = freshDb();
    expect(recordShare(db, "d1", relayA, "here", 10, null)).toBe(true);
    expect(recordShare(db, "d1", relayA, "here", 20, null)).toBe(false);
    expect(sharesOf(db, relayA)).toEqual([{ documentId: "d1", origin: "here", sharedAt: 10, enteredAt: null }]);
    // Another relay's address never sees it.
    expect(ids(db, { url: "wss://b.example", teamIndexId: null })).toEqual([]);
    // Made before the team was known, it counts for whichever team the address names, until the relay names one.
    expect(ids(db, { url: relayA.url, teamIndexId: "team-1" })).toEqual(["d1"]);
    bindTeam(db, relayA.url, "team-1");
    expect(ids(db, { url: relayA.url, teamIndexId: "team-1" })).toEqual(["d1"]);
    // The relay at the same address was reset: its new team is another team.
    expect(ids(db, { url: relayA.url, teamIndexId: "team-2" })).toEqual([]);
    // Sharing with that new team replaces the old team's row.
    expect(recordShare(db, "d1", { url: relayA.url, teamIndexId: "team-2" }, "here", 30, null)).toBe(true);
    expect(ids(db, { url: relayA.url, teamIndexId: "team-1" })).toEqual([]);
    markEntered(db, "d1", relayA, 40);
    markEntered(db, "d1", relayA, 50);
    expect(sharesOf(db, { url: relayA.url, teamIndexId: "team-2" })[0]).toMatchObject({ enteredAt: 40, sharedAt: 30 });
    forgetShare(db, "d1", relayA.url);
    expect(ids(db, { url: relayA.url, teamIndexId: "team-2" })).toEqual([]);
  });

  it("forgets a deleted document for every relay", () => {
    const { db } = freshDb();
    recordShare(db, "d1", relayA, "here", 1, null);
    recordShare(db, "d1", { url: "wss://b.example", teamIndexId: "t" }, "team", 1, 1);
    forgetAllShares(db, "d1");
    expect(db.prepare("SELECT count(*) AS n FROM relay_shares").get()).toEqual({ n: 0 });
  });

  it("constraints refuse a second row for a document and relay, and an unknown origin", () => {
    const { db } = freshDb();
    const insert = db.prepare("INSERT INTO relay_shares (document_id, relay_url, origin, shared_at) VALUES (?, ?, ?, 1)");
    insert.run("d", "wss://a", "here");
    expect(() => insert.run("d", "wss://a", "team")).toThrow(/UNIQUE|PRIMARY/);
    expect(() => insert.run("e", "wss://a", "teammate")).toThrow(/CHECK/);
  });

  it("takes schema 6's shares as the configured relay's, ties the relay token to that address, and marks the team's plans for adoption", () => {
    const { dir } = freshDb();
    const old = new BetterSqlite3(localDbPath(dir));
    old.exec("DROP TABLE agent_chat_outbox; DROP TABLE conversation_outbox; DROP TABLE conversation_drafts; DROP TABLE conversation_reads; DROP TABLE relay_shares; CREATE TABLE document_sharing (document_id TEXT PRIMARY KEY NOT NULL, shared INTEGER NOT NULL CHECK (shared IN (0, 1)), shared_at INTEGER) STRICT;");
    old.exec("DELETE FROM settings");
    old.pragma("user_version = 6");
    const insert = old.prepare("INSERT INTO document_sharing (document_id, shared, shared_at) VALUES (?, ?, ?)");
    insert.run("shared-one", 1, 5);
    insert.run("never-shared", 0, null);
    const set = old.prepare("INSERT INTO settings (key, value) VALUES (?, ?)");
    set.run("settings.relayUrl", "wss://team.example");
    set.run("relay.teamIndexId:wss://team.example", "team-index");
    set.run("settings.relayToken", "tok");
    old.close();

    const db = openLocalDb(dir);
    dbs.push(db);
    expect(sharesOf(db, { url: "wss://team.example", teamIndexId: "team-index" })).toEqual([
      { documentId: "shared-one", origin: "here", sharedAt: 5, enteredAt: null },
    ]);
    expect(getSetting(db, "settings.relayTokenUrl")).toBe("wss://team.example");
    expect(getSetting(db, "sharing.adoptHeldFor")).toBe("wss://team.example");
  });

  it("drops schema 6's shares when no relay was configured: they belonged to no team", () => {
    const { dir } = freshDb();
    const old = new BetterSqlite3(localDbPath(dir));
    old.exec("DROP TABLE agent_chat_outbox; DROP TABLE conversation_outbox; DROP TABLE conversation_drafts; DROP TABLE conversation_reads; DROP TABLE relay_shares; CREATE TABLE document_sharing (document_id TEXT PRIMARY KEY NOT NULL, shared INTEGER NOT NULL, shared_at INTEGER) STRICT;");
    old.exec("DELETE FROM settings; INSERT INTO document_sharing VALUES ('d', 1, 1); INSERT INTO settings VALUES ('settings.relayToken', 'tok');");
    old.pragma("user_version = 6");
    old.close();
    const db = openLocalDb(dir);
    dbs.push(db);
    expect(db.prepare("SELECT count(*) AS n FROM relay_shares").get()).toEqual({ n: 0 });
    expect(getSetting(db, "settings.relayTokenUrl")).toBeNull();
    expect(getSetting(db, "sharing.adoptHeldFor")).toBeNull();
  });
});

describe("mcp_replays", () => {
  const row = { idempotencyKey: "k1", tool: "create_document", fingerprint: "f", resultJson: "{}", createdAt: 1 };

  it("stores and finds a replay; the constraint refuses the second insert", () => {
    const { db } = freshDb();
    expect(findReplay(db, "k1")).toBeNull();
    expect(insertReplay(db, row)).toBe(true);
    expect(insertReplay(db, { ...row, fingerprint: "other" })).toBe(false);
    expect(findReplay(db, "k1")).toEqual(row);
  });

  it("the PRIMARY KEY itself (not code) refuses a duplicate key", () => {
    const { db } = freshDb();
    const sql = "INSERT INTO mcp_replays (idempotency_key, tool, fingerprint, result_json, created_at) VALUES (?,?,?,?,?)";
    db.prepare(sql).run("k", "t", "f", "{}", 1);
    expect(() => db.prepare(sql).run("k", "t2", "f2", "{}", 2)).toThrow(/UNIQUE constraint failed: mcp_replays/);
  });

  it("survives reopening the database", () => {
    const { db, dir } = freshDb();
    insertReplay(db, row);
    db.close();
    const again = openLocalDb(dir);
    dbs.push(again);
    expect(findReplay(again, "k1")).toEqual(row);
  });
});

describe("the folded search text of snapshots", () => {
  it("is filled for snapshots written before it existed, when the database opens", () => {
    const { db, dir } = freshDb();
    // A data folder from schema 2: the column is dropped back out and a row written without it.
    db.exec(
      "ALTER TABLE document_snapshots DROP COLUMN folded; DROP TABLE team_removals; DROP TABLE damaged_chunks; DROP TABLE mcp_sessions; DROP TABLE relay_shares; " +
        "DROP TABLE agent_chat_outbox; DROP TABLE conversation_outbox; DROP TABLE conversation_drafts; DROP TABLE conversation_reads; " +
        "CREATE TABLE document_sharing (document_id TEXT PRIMARY KEY NOT NULL, shared INTEGER NOT NULL, shared_at INTEGER) STRICT",
    );
    db.pragma("user_version = 2");
    db.prepare("INSERT INTO document_snapshots (document_id, heads, title, text, saved_at) VALUES ('d', '[]', 't', 'Café ÜBER', 1)").run();
    db.close();
    const reopened = openLocalDb(dir);
    dbs.push(reopened);
    expect(reopened.prepare("SELECT folded FROM document_snapshots WHERE document_id = 'd'").get()).toEqual({ folded: "cafe uber" });
  });
});
