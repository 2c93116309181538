/**
 * The relay's one SQLite file (relay.sqlite in its data directory): users, peer bindings, relay metadata and the
 * Automerge chunks (automerge_chunks, owned by SqliteStorageAdapter). The CLI opens the same file from another process
 * while the relay runs, so WAL and a busy timeout are required. The relay's own connection commits with
 * synchronous=NORMAL (see openRelayDb); the CLI's user commands commit with FULL (durableUserWrites), because a
 * token issued or revoked must survive even a power cut the moment the CLI says so.
 */
import { AGENT_CHAT_TABLE_SQL } from "../shared/node/agent-chat-table.js";
import { AGENT_STARS_OWNERS_TABLE_SQL } from "./agent-stars-owners.js";
import { PLANNER_LEASE_TABLE_SQL } from "../shared/node/planner-leases.js";
import { RELAY_TOKEN_LINK_TABLE_SQL } from "./token-links.js";
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { ChopinError } from "../shared/errors.js";
import { ensurePrivateDbFile, ensurePrivateDir } from "../shared/node/private-files.js";
import { migrate, type Migration } from "../shared/node/sqlite-migrate.js";

export const RELAY_DB_FILE = "relay.sqlite";

/** Where the relay database of `dataDir` lives (absolute, so messages name the real place). */
export function relayDbPath(dataDir: string): string {
  return resolve(dataDir, RELAY_DB_FILE);
}

/**
 * Whether `dataDir` already holds a relay database. A folder this user may not look into is not "no database": that
 * throws, with a sentence, instead of sending the person to check a path that is right.
 */
export function relayDbExists(dataDir: string, stat: (path: string) => unknown = statSync): boolean {
  try {
    stat(relayDbPath(dataDir));
    return true;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return false;
    if (code === "EACCES" || code === "EPERM") {
      throw new ChopinError("storage-failure", `No permission to look into ${resolve(dataDir)}: run this as the user that owns the relay's data folder.`, {
        path: relayDbPath(dataDir),
      });
    }
    throw error;
  }
}

/**
 * Opens the relay database of `dataDir` only if it is there: a mistyped --data must not quietly make a new, empty
 * relay (nothing is created on refusal).
 */
export function openExistingRelayDb(dataDir: string): Database.Database {
  if (!relayDbExists(dataDir)) {
    throw new ChopinError(
      "not-found",
      `No relay database in ${resolve(dataDir)} (expected ${RELAY_DB_FILE} there). Check --data or CHOPIN_RELAY_DATA.`,
      { path: relayDbPath(dataDir) },
    );
  }
  return openRelayDb(dataDir);
}

/**
 * Schema steps, in order: step i takes a database at user_version i to i + 1. Steps are only ever appended (a
 * relay database of any earlier version must still open); SCHEMA_VERSION is how many there are.
 */
const MIGRATIONS: readonly Migration[] = [
  (db) =>
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
    `),
  // Peer bindings are bounded per user and expire (peer-bindings.ts), both by when each was last used. Existing
  // bindings count as last used when they were bound. The default keeps an older relay's inserts working.
  (db) =>
    db.exec(`
      ALTER TABLE peer_bindings ADD COLUMN used_at INTEGER NOT NULL DEFAULT 0;
      UPDATE peer_bindings SET used_at = bound_at;
      CREATE INDEX IF NOT EXISTS peer_bindings_by_user ON peer_bindings (handle, used_at);
      CREATE INDEX IF NOT EXISTS peer_bindings_by_use ON peer_bindings (used_at);
    `),
  // Stored chunks of a document that are not Automerge data are moved here, not deleted (corrupt-chunks.ts): the
  // operator keeps the evidence, and the document loads from what remains or is restored by a member's sync.
  (db) =>
    db.exec(`
      CREATE TABLE IF NOT EXISTS quarantined_chunks (
        key TEXT PRIMARY KEY NOT NULL,
        data BLOB NOT NULL,
        reason TEXT NOT NULL,
        quarantined_at INTEGER NOT NULL
      );
    `),
  // A plan deleted from the team's list is refused to every member from then on, and its chunks are removed after
  // RELAY_DELETED_DOCUMENT_GRACE_MS (deleted-documents.ts). The row stays after the purge: the id is never served again.
  (db) =>
    db.exec(`
      CREATE TABLE IF NOT EXISTS deleted_documents (
        document_id TEXT PRIMARY KEY NOT NULL,
        deleted_at INTEGER NOT NULL,
        purged_at INTEGER
      );
    `),
  // Who runs the Planner in each channel (issue #25): a lease with an ownership generation that only a new owner
  // moves, by one (shared/node/planner-leases.ts). No token is stored: the holder is a user, a device and a run.
  (db) => db.exec(PLANNER_LEASE_TABLE_SQL),
  // Which plan is each person's chat with each agent (issue #27): one row per (team, agent, person), unique by the
  // table's constraints (shared/node/agent-chat-table.ts), served at /v1/agent-chats.
  (db) => db.exec(AGENT_CHAT_TABLE_SQL),
  // Which relay-token user speaks for which GitHub login (issue #27: the chat guard), one login per token user by the
  // primary key (token-links.ts); recorded when an app registers a GitHub chat with both credentials.
  (db) => db.exec(RELAY_TOKEN_LINK_TABLE_SQL),
  // Who may write each person's stars document in the team (issue #27: the chat guard), one registrant per person by
  // the primary key (agent-stars-owners.ts); recorded when a person's app registers its stars.
  (db) => db.exec(AGENT_STARS_OWNERS_TABLE_SQL),
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Makes this connection's commits reach the disk before they return (the CLI's user commands). */
export function durableUserWrites(db: Database.Database): Database.Database {
  db.pragma("synchronous = FULL");
  return db;
}

/**
 * Opens the relay database of `dataDir`, creating the folder and the database when missing. Both are owner-only
 * (shared/node/private-files.ts): the file holds every team document and the users' token hashes.
 */
export function openRelayDb(dataDir: string): Database.Database {
  ensurePrivateDir(dataDir);
  const file = join(dataDir, RELAY_DB_FILE);
  ensurePrivateDbFile(file);
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  // The relay's copy is one replica of many: a killed relay loses nothing (WAL), a power cut may lose the last
  // commits, which clients send again on their next sync (no client keeps a sync state with the relay on disk).
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  try {
    // The same runner as the app core's: one IMMEDIATE transaction (the CLI may open the file at the same moment), and
    // a database from a newer relay is refused instead of being written by one that does not know its tables.
    migrate(db, MIGRATIONS, `The relay's data folder ${resolve(dataDir)}`);
  } catch (error) {
    db.close();
    throw error;
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
