/**
 * PROTOTYPE (bench-local, meant to move into the product's main/store/): a materialized text snapshot per document,
 * kept in the same SQLite file as the Automerge chunks, so opening a large document can paint its text before
 * Automerge has loaded it (load() of the 259,778-change paper trace takes ~1.8 s; reading one row takes ~1 ms).
 *
 * How the product would use it:
 * - Write: after a document's heads change, debounced (e.g. 1-2 s) and on close, store {heads, text, title}. It is a
 *   cache, so losing the last write costs only a slower open, never data.
 * - Open: main reads the row and sends the text to the renderer, which shows a READ-ONLY editor at once; main loads
 *   the document in the background; when the handle is ready, compare heads: equal -> make the same editor editable
 *   (no text swap, no flicker); different -> replace the editor content with the document's text, then editable.
 * - Never edit the snapshot text: typing before the document is ready would fork from an unknown base.
 *
 * What must stay true: a snapshot is only trusted for display; editing always starts from the loaded document, and a
 * snapshot whose heads are not the document's current heads is replaced, not merged.
 */
import type { Database } from "better-sqlite3";

export interface TextSnapshot {
  heads: string[];
  text: string;
  savedAt: number;
}

export function ensureSnapshotTable(db: Database): void {
  db.exec(
    `CREATE TABLE IF NOT EXISTS document_snapshots (
       document_id TEXT PRIMARY KEY,
       heads TEXT NOT NULL,
       text TEXT NOT NULL,
       saved_at INTEGER NOT NULL
     )`,
  );
}

export function writeSnapshot(db: Database, documentId: string, heads: readonly string[], text: string, savedAt: number): void {
  db.prepare(
    `INSERT INTO document_snapshots (document_id, heads, text, saved_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(document_id) DO UPDATE SET heads = excluded.heads, text = excluded.text, saved_at = excluded.saved_at`,
  ).run(documentId, JSON.stringify([...heads].sort()), text, savedAt);
}

export function readSnapshot(db: Database, documentId: string): TextSnapshot | undefined {
  const row = db
    .prepare("SELECT heads, text, saved_at FROM document_snapshots WHERE document_id = ?")
    .get(documentId) as { heads: string; text: string; saved_at: number } | undefined;
  return row ? { heads: JSON.parse(row.heads) as string[], text: row.text, savedAt: row.saved_at } : undefined;
}

/** True when the snapshot shows exactly the document at `heads` (order-insensitive). */
export function snapshotIsCurrent(snapshot: TextSnapshot, heads: readonly string[]): boolean {
  const sorted = [...heads].sort();
  return sorted.length === snapshot.heads.length && sorted.every((h, i) => h === snapshot.heads[i]);
}
