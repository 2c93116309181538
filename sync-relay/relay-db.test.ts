import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { durableUserWrites, openExistingRelayDb, openRelayDb, RELAY_DB_FILE, SCHEMA_VERSION } from "./relay-db.js";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("relay database", () => {
  it("the relay's connection commits with synchronous=NORMAL, the CLI's user commands with FULL", () => {
    dir = mkdtempSync(join(tmpdir(), "chopin-relay-db-"));
    const relay = openRelayDb(dir);
    const cli = durableUserWrites(openExistingRelayDb(dir));
    // SQLite's codes: 1 = NORMAL, 2 = FULL.
    expect(relay.pragma("synchronous", { simple: true })).toBe(1);
    expect(cli.pragma("synchronous", { simple: true })).toBe(2);
    relay.close();
    cli.close();
  });

  it("openExistingRelayDb refuses a folder without a relay database and creates nothing", () => {
    dir = mkdtempSync(join(tmpdir(), "chopin-relay-db-"));
    const typo = join(dir, "typo");
    expect(() => openExistingRelayDb(typo)).toThrow(expect.objectContaining({ code: "not-found" }));
    expect(existsSync(join(typo, RELAY_DB_FILE))).toBe(false);
    expect(existsSync(typo)).toBe(false);
  });

  it("migrates a version 1 database: each peer binding counts as last used when it was bound", () => {
    dir = mkdtempSync(join(tmpdir(), "chopin-relay-db-"));
    const old = new Database(join(dir, RELAY_DB_FILE));
    old.exec(`
      CREATE TABLE users (handle TEXT PRIMARY KEY NOT NULL UNIQUE, token_hash TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL, revoked_at INTEGER);
      CREATE TABLE peer_bindings (peer_id TEXT PRIMARY KEY NOT NULL, handle TEXT NOT NULL, bound_at INTEGER NOT NULL);
      CREATE TABLE relay_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
      INSERT INTO peer_bindings (peer_id, handle, bound_at) VALUES ('device-1', 'alice', 1234);
    `);
    old.pragma("user_version = 1");
    old.close();

    const db = openRelayDb(dir);
    expect(db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT peer_id, handle, bound_at, used_at FROM peer_bindings").all()).toEqual([
      { peer_id: "device-1", handle: "alice", bound_at: 1234, used_at: 1234 },
    ]);
    db.close();
    // Opening again changes nothing.
    const again = openRelayDb(dir);
    expect(again.prepare("SELECT used_at FROM peer_bindings").all()).toEqual([{ used_at: 1234 }]);
    again.close();
  });
});
