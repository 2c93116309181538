/**
 * Opens the app core's local SQLite database `<dataDir>/chopin.db` (WAL, foreign keys on) and brings its schema up
 * to date. One Database object per process: the core may hand the same object to the Automerge storage adapter,
 * which keeps its own table.
 */
import BetterSqlite3, { type Database } from "better-sqlite3";
import { join } from "node:path";
import { ensurePrivateDbFile, ensurePrivateDir } from "../../shared/node/private-files.js";
import { foldForSearch } from "../../shared/search-fold.js";
import { LOCAL_DB_MIGRATIONS } from "./migrations.js";
import { migrate } from "../../shared/node/sqlite-migrate.js";

export const LOCAL_DB_FILE = "chopin.db";
/** The SQL function every local connection has: chopin_fold(text) = foldForSearch(text). */
export const SEARCH_FOLD_FUNCTION = "chopin_fold";

export type LocalDb = Database;

export function localDbPath(dataDir: string): string {
  return join(dataDir, LOCAL_DB_FILE);
}

/**
 * Opens (creating if needed) and migrates the local database. The file is owner-only (it holds the relay and MCP
 * tokens), even where the data folder could not be made private.
 */
export function openLocalDb(dataDir: string): LocalDb {
  ensurePrivateDir(dataDir);
  ensurePrivateDbFile(localDbPath(dataDir));
  const db = new BetterSqlite3(localDbPath(dataDir));
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    db.pragma("busy_timeout = 5000");
    // Search compares folded text (case and accents ignored) inside SQLite: shared/search-fold.ts.
    db.function(SEARCH_FOLD_FUNCTION, { deterministic: true }, (text) => (typeof text === "string" ? foldForSearch(text) : text));
    migrate(db, LOCAL_DB_MIGRATIONS);
    // Snapshots written before the folded column existed (once per data folder; a cache, so never in the way).
    db.prepare(`UPDATE document_snapshots SET folded = ${SEARCH_FOLD_FUNCTION}(text) WHERE folded IS NULL`).run();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
