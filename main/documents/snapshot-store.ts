/**
 * Rows of `document_snapshots`: the last materialized title and text of a plan document with the heads they show,
 * so a window can paint a large document before Automerge has loaded it (load() of a 259,778-change document takes
 * ~1.8 s; reading one row takes ~1 ms).
 * What must stay true: a row is a cache, trusted for display only. Editing always starts from the loaded document;
 * a row whose heads are not the document's heads is replaced by the loaded text, never merged.
 */
import type { Database } from "better-sqlite3";

export interface SnapshotRow {
  documentId: string;
  /** Hex change hashes, sorted. */
  heads: string[];
  title: string;
  text: string;
  savedAt: number;
}

export function sortedHeads(heads: readonly string[]): string[] {
  return [...heads].sort();
}

export function writeSnapshot(db: Database, row: SnapshotRow): void {
  db.prepare(
    `INSERT INTO document_snapshots (document_id, heads, title, text, saved_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(document_id) DO UPDATE SET
       heads = excluded.heads, title = excluded.title, text = excluded.text, saved_at = excluded.saved_at`,
  ).run(row.documentId, JSON.stringify(sortedHeads(row.heads)), row.title, row.text, row.savedAt);
}

export function readSnapshot(db: Database, documentId: string): SnapshotRow | null {
  const row = db
    .prepare("SELECT heads, title, text, saved_at FROM document_snapshots WHERE document_id = ?")
    .get(documentId) as { heads: string; title: string; text: string; saved_at: number } | undefined;
  if (!row) return null;
  const heads = parseHeads(row.heads);
  // A damaged row is a cache miss, not an error: the document itself is the truth.
  if (!heads) return null;
  return { documentId, heads, title: row.title, text: row.text, savedAt: row.saved_at };
}

/** Just the heads (cheap: no text read), to decide whether a row is stale. */
export function readSnapshotHeads(db: Database, documentId: string): string[] | null {
  const row = db.prepare("SELECT heads FROM document_snapshots WHERE document_id = ?").get(documentId) as
    | { heads: string }
    | undefined;
  return row ? parseHeads(row.heads) : null;
}

export function deleteSnapshot(db: Database, documentId: string): void {
  db.prepare("DELETE FROM document_snapshots WHERE document_id = ?").run(documentId);
}

/** Order-insensitive equality of two head lists. */
export function sameHeads(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const x = sortedHeads(a);
  const y = sortedHeads(b);
  return x.every((head, i) => head === y[i]);
}

function parseHeads(json: string): string[] | null {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) && value.every((h) => typeof h === "string") ? (value as string[]) : null;
  } catch {
    return null;
  }
}
