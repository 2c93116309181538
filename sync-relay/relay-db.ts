/**
 * The relay's one SQLite file (relay.sqlite in its data directory): users, peer bindings, relay metadata and the
 * Automerge chunks (automerge_chunks, owned by SqliteStorageAdapter). The CLI opens the same file from another process
 * while the relay runs, so WAL and a busy timeout are required; synchronous=FULL because a token issued or revoked
 * must survive a crash the moment the CLI says so.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";

export const RELAY_DB_FILE = "relay.sqlite";

const SCHEMA_VERSION = 1;

export function openRelayDb(dataDir: string): Database.Database {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, RELAY_DB_FILE));
  db.pragma("journal_mode = WAL");
  // The relay's copy is one replica of many: a killed relay loses nothing (WAL), a power cut may lose the last
  // commits, which clients send again on their next sync (no client keeps a sync state with the relay on disk).
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version < SCHEMA_VERSION) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS users (
        handle TEXT PRIMARY KEY NOT NULL UNIQUE,
        token_hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      );
      CREATE TABLE IF NOT EXISTS peer_bindings (
        peer_id TEXT PRIMARY KEY NOT NULL,
        handle TEXT NOT NULL,
        bound_at INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS relay_meta (
        key TEXT PRIMARY KEY NOT NULL,
        value TEXT NOT NULL
      );
    `);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }
  return db;
}

export function readMeta(db: Database.Database, key: string): string | undefined {
  const row = db.prepare("SELECT value FROM relay_meta WHERE key = ?").get(key) as { value: string } | undefined;
  return row?.value;
}

export function writeMeta(db: Database.Database, key: string, value: string): void {
  db.prepare("INSERT INTO relay_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(
    key,
    value,
  );
}
