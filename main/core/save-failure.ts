/**
 * The sentence a failed write to chopin.db becomes. A raw SqliteError reached the window as 'internal' ("The
 * operation was not applied"), which is false for an edit: the edit is in memory and in the window, only not on disk.
 * What must stay true: every failure maps to 'storage-failure' with a sentence that says the latest edits are not on
 * disk yet and what a person can do; the SQLite or system code is kept in details for diagnosis.
 */
import { ChopinError } from "../../shared/errors.js";

const NOT_SAVED = "The latest edits are kept in memory, not on disk yet, and are saved once Chopin can write again.";

export function saveFailure(error: unknown): ChopinError {
  if (error instanceof ChopinError) return error;
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  const cause = error instanceof Error ? error.message : String(error);
  return new ChopinError("storage-failure", `${reasonFor(code)} ${NOT_SAVED}`, { cause, ...(code ? { sqliteCode: code } : {}) });
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
