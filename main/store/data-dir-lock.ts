/**
 * One app core per data folder. Two cores on one folder (the app started twice, host mode beside Electron) were two
 * writers on one chopin.db, each with its own in-memory Repo: neither saw the other's plans until a restart, both
 * answered agents from the same replay table, and the second rewrote mcp-config.json under the first (storage audit).
 * A core therefore holds an exclusive SQLite lock on `<dataDir>/chopin.lock` for as long as it runs, taken before it
 * opens or writes anything else in the folder; a second core fails to take it and refuses to start.
 * The lock itself is shared/node/folder-lock.ts.
 *
 * What must stay true: the lock is taken before the folder's database is opened.
 */
import { resolve } from "node:path";
import { ChopinError } from "../../shared/errors.js";
import { tryLockFolder, type FolderLock } from "../../shared/node/folder-lock.js";

export const DATA_DIR_LOCK_FILE = "chopin.lock";

export type DataDirLock = FolderLock;

/** Takes the folder's lock, or throws 'already-running' when another core holds it. The folder must exist. */
export function lockDataDir(dataDir: string): DataDirLock {
  const lock = tryLockFolder(dataDir, DATA_DIR_LOCK_FILE);
  if (lock) return lock;
  throw new ChopinError(
    "already-running",
    `Chopin is already running with this data folder (${resolve(dataDir)}). Switch to that copy, or quit it before starting again; to run a second copy, give it another folder with --data-dir.`,
    { dataDir: resolve(dataDir) },
  );
}
