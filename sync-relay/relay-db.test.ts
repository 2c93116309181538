import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { durableUserWrites, openExistingRelayDb, openRelayDb, RELAY_DB_FILE, relayDbExists, SCHEMA_VERSION } from "./relay-db.js";
import { startRelay } from "./server.js";

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

  it("keeps the folder it creates and the database with its WAL files owner-only, whatever the umask", () => {
    dir = mkdtempSync(join(tmpdir(), "chopin-relay-db-"));
    const data = join(dir, "relay");
    const mode = (path: string) => statSync(path).mode & 0o777;
    const umask = process.umask(0o022);
    try {
      const db = openRelayDb(data);
      db.prepare("INSERT INTO relay_meta (key, value) VALUES ('k', 'v')").run();
      expect(mode(data)).toBe(0o700);
      for (const suffix of ["", "-wal", "-shm"]) expect(mode(join(data, RELAY_DB_FILE + suffix))).toBe(0o600);
      db.close();
    } finally {
      process.umask(umask);
    }
  });

  it("narrows a database an older relay left readable by others", () => {
    dir = mkdtempSync(join(tmpdir(), "chopin-relay-db-"));
    openRelayDb(dir).close();
    const file = join(dir, RELAY_DB_FILE);
    chmodSync(file, 0o644);
    writeFileSync(`${file}-shm`, "");
    chmodSync(`${file}-shm`, 0o644);
    const db = openRelayDb(dir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}-shm`).mode & 0o777).toBe(0o600);
    db.close();
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

  it("refuses a database a newer relay wrote, with a sentence, and writes nothing to it", async () => {
    dir = mkdtempSync(join(tmpdir(), "chopin-relay-db-"));
    openRelayDb(dir).close();
    const newer = new Database(join(dir, RELAY_DB_FILE));
    newer.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    newer.close();
    expect(() => openRelayDb(dir)).toThrow(/newer version of Chopin .*update Chopin to open it/);
    const after = new Database(join(dir, RELAY_DB_FILE));
    expect(after.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION + 1);
    after.close();
    // The relay's start says the same, in its own sentence, and creates nothing.
    await expect(startRelay({ dataDir: dir })).rejects.toThrow(/newer version of Chopin/);
  });
});

describe("relayDbExists", () => {
  const failing = (code: string) => () => {
    throw Object.assign(new Error(code), { code });
  };

  it("reads a missing file (or a file on the way) as no database, and a folder it may not look into as a sentence", () => {
    expect(relayDbExists("/x", failing("ENOENT"))).toBe(false);
    expect(relayDbExists("/x", failing("ENOTDIR"))).toBe(false);
    expect(relayDbExists("/x", () => ({}))).toBe(true);
    expect(() => relayDbExists("/srv/relay", failing("EACCES"))).toThrow(/^No permission to look into \/srv\/relay: run this as the user that owns/);
    expect(() => relayDbExists("/x", failing("EIO"))).toThrow("EIO");
  });
});
