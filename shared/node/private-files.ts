/**
 * Owner-only files for what other accounts on the machine must not read: a relay's documents and token hashes, the
 * app core's settings (relay token, MCP token). A folder we create is 0700; a SQLite file is created 0600 before
 * SQLite opens it (SQLite gives its -wal and -shm files the main file's mode, so they follow), and one left wider by
 * an older version is narrowed. Exists because the default umask (022) made relay.sqlite, and with it every team
 * document, readable by every local user.
 *
 * What must stay true: a file is never created wider than 0600; narrowing a file that is not ours (a shared mount,
 * another owner) is best effort and never stops a start.
 */
import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` (and missing parents) owner-only; an existing folder is left as it is. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Makes sure the SQLite file at `path` exists owner-only, with its -wal and -shm companions, before it is opened. */
export function ensurePrivateDbFile(path: string): void {
  try {
    closeSync(openSync(path, "wx", PRIVATE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(file, PRIVATE_FILE_MODE);
    } catch {
      // Absent (no WAL yet) or not ours to change: keep going with what the OS gave us.
    }
  }
}
