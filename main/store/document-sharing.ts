/**
 * This device's record of which documents it shared. It is the durable half of "share": the team index may not be
 * known yet (never connected), so the record here is what later reconciliation enters into the team index.
 * Sharing is one-way: a row never goes from shared = 1 back to 0 through this module.
 */
import type { Database } from "better-sqlite3";
import { statement } from "../../shared/node/statements.js";

export interface SharingRecord {
  documentId: string;
  sharedAt: number | null;
}

/** Records a share; returns false when the document was already recorded as shared (the first time wins). */
export function recordShared(db: Database, documentId: string, sharedAt: number): boolean {
  const result = statement(
    db,
    `INSERT INTO document_sharing (document_id, shared, shared_at) VALUES (?, 1, ?)
       ON CONFLICT(document_id) DO UPDATE SET shared = 1, shared_at = excluded.shared_at WHERE shared = 0`,
  ).run(documentId, sharedAt);
  return result.changes > 0;
}

/** Asked for every sync message the relay link carries (the share policy), hence the cached statement. */
export function isRecordedShared(db: Database, documentId: string): boolean {
  const row = statement(db, "SELECT shared FROM document_sharing WHERE document_id = ?").get(documentId) as
    | { shared: number }
    | undefined;
  return row?.shared === 1;
}

export function listShared(db: Database): SharingRecord[] {
  const rows = db
    .prepare("SELECT document_id, shared_at FROM document_sharing WHERE shared = 1 ORDER BY document_id")
    .all() as { document_id: string; shared_at: number | null }[];
  return rows.map((row) => ({ documentId: row.document_id, sharedAt: row.shared_at }));
}

/** Forgets a deleted document. */
export function forgetSharing(db: Database, documentId: string): void {
  db.prepare("DELETE FROM document_sharing WHERE document_id = ?").run(documentId);
}
