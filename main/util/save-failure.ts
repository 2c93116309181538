/**
 * The sentence a failed write to chopin.db becomes. A raw SqliteError reached the window as 'internal' ("The
 * operation was not applied"), which is false for an edit: the edit is in memory and in the window, only not on disk.
 * A write refused whole (a settings change, a share record: one statement or transaction that rolled back) did change
 * nothing, and says so instead.
 * What must stay true: every failure maps to 'storage-failure' with a sentence that says what became of the write
 * (kept in memory and saved later, or nothing changed) and what a person can do; the SQLite or system code is kept
 * in details for diagnosis.
 */
import { ChopinError } from "../../shared/errors.js";

/** What became of a write that failed: its change waits in memory, or it was refused whole. */
export type FailedWrite = "kept-in-memory" | "nothing-changed";

const OUTCOME: Record<FailedWrite, string> = {
  "kept-in-memory": "The latest edits are kept in memory, not on disk yet, and are saved once Chopin can write again.",
  "nothing-changed": "Nothing was changed: try again once Chopin can write again.",
};

export function saveFailure(error: unknown, outcome: FailedWrite = "kept-in-memory"): ChopinError {
  if (error instanceof ChopinError) return error;
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  const cause = error instanceof Error ? error.message : String(error);
  return new ChopinError("storage-failure", `${reasonFor(code)} ${OUTCOME[outcome]}`, { cause, ...(code ? { sqliteCode: code } : {}) });
}

/**
 * Runs a write to chopin.db that is done whole or not at all (one statement, or a transaction); when the database
 * refuses it, throws a 'storage-failure' saying nothing changed. A ChopinError thrown inside passes unchanged.
 */
export function writeWhole<T>(write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw saveFailure(error, "nothing-changed");
  }
}

function reasonFor(code: string): string {
  if (code === "SQLITE_FULL" || code === "ENOSPC") return "Chopin cannot write to its database because the disk is full: free some space.";
  if (code.startsWith("SQLITE_READONLY") || code === "EROFS" || code === "EACCES" || code === "EPERM") {
    return "Chopin cannot write to its database: the file or its folder became read-only.";
  }
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    return "Chopin cannot write to its database: another program holds it locked.";
  }
  if (code.startsWith("SQLITE_IOERR")) return "Chopin cannot write to its database: the disk reported an error.";
  return "Chopin cannot write to its database.";
}
