/**
 * Documents a teammate removed from the team's list (deleted on their device) while this device held a copy: kept
 * here as private documents, with when they left the team. One row per document (primary key); sharing the document
 * again or deleting it here forgets the row.
 */
import type { Database } from "better-sqlite3";
import { statement } from "../../shared/node/statements.js";

export function recordTeamRemoval(db: Database, documentId: string, removedAt: number): void {
  statement(db, "INSERT INTO team_removals (document_id, removed_at) VALUES (?, ?) ON CONFLICT(document_id) DO NOTHING").run(
    documentId,
    removedAt,
  );
}

/** When a teammate removed the document from the team's list, or null. */
export function teamRemovalOf(db: Database, documentId: string): number | null {
  const row = statement(db, "SELECT removed_at FROM team_removals WHERE document_id = ?").get(documentId) as { removed_at: number } | undefined;
  return row?.removed_at ?? null;
}

export function forgetTeamRemoval(db: Database, documentId: string): void {
  statement(db, "DELETE FROM team_removals WHERE document_id = ?").run(documentId);
}
