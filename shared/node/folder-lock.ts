/**
 * One process per data folder, for the app core (chopin.lock) and the relay (relay.lock): two on one folder were two
 * writers on one database, each with its own in-memory copy of every document (storage audits). The lock is an
 * exclusive SQLite transaction on a file of its own, held open and never committed.
 *
 * Why SQLite's lock and not a pid file: the operating system drops it the moment the process ends, however it ends
 * (SIGKILL, a crash, a power cut), so there is never a stale lock to clear by hand, and SQLite takes it alike on Linux,
 * macOS and Windows. The folder's own database stays shareable (the relay's user commands open it while it serves).
 *
 * What must stay true: the lock is never waited for (a second start answers at once), the lock file stays in rollback
 * journal mode (never WAL, where an exclusive transaction would not keep readers out), and only release() or the end
 * of the process lets it go.
 */
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { ensurePrivateDbFile } from "./private-files.js";

export interface FolderLock {
  /** Lets the folder go. Idempotent. */
  release(): void;
}

/** Takes the lock on `<dir>/<file>` (the folder must exist), or returns null when another process holds it. */
export function tryLockFolder(dir: string, file: string): FolderLock | null {
  const path = join(dir, file);
  ensurePrivateDbFile(path);
  // timeout 0: a held lock answers SQLITE_BUSY at once instead of after better-sqlite3's default 5 s wait.
  const db = new BetterSqlite3(path, { timeout: 0 });
  try {
    db.exec("BEGIN EXCLUSIVE");
  } catch (error) {
    db.close();
    const code = (error as { code?: unknown }).code;
    if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") return null;
    throw error;
  }
  return {
    release() {
      if (db.open) db.close();
    },
  };
}
