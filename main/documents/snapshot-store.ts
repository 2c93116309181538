/**
 * Rows of `document_snapshots`: the last materialized title and text of a plan document with the heads they show,
 * so a window can paint a large document before Automerge has loaded it (load() of a 259,778-change document takes
 * ~1.8 s; reading one row takes ~1 ms).
 * What must stay true: a row is a cache, trusted for display only. Editing always starts from the loaded document;
 * a row whose heads are not the document's heads is replaced by the loaded text, never merged.
 */
import type { Database } from "better-sqlite3";
import { SEARCH_FOLD_FUNCTION } from "../store/local-db.js";
import { foldForSearch } from "../../shared/search-fold.js";
import { statement } from "../../shared/node/statements.js";

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

// Snapshots are written and their heads read on every settled edit: those statements are prepared once per
// connection (statements.ts). Never a statement that is iterated: a cached one could be busy when asked again.
export function writeSnapshot(db: Database, row: SnapshotRow): void {
  statement(
    db,
    `INSERT INTO document_snapshots (document_id, heads, title, text, saved_at, folded) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(document_id) DO UPDATE SET
       heads = excluded.heads, title = excluded.title, text = excluded.text, saved_at = excluded.saved_at,
       folded = excluded.folded`,
  ).run(row.documentId, JSON.stringify(sortedHeads(row.heads)), row.title, row.text, row.savedAt, foldForSearch(row.text));
}

export function readSnapshot(db: Database, documentId: string): SnapshotRow | null {
  const row = statement(db, "SELECT heads, title, text, saved_at FROM document_snapshots WHERE document_id = ?").get(documentId) as { heads: string; title: string; text: string; saved_at: number } | undefined;
  if (!row) return null;
  const heads = parseHeads(row.heads);
  // A damaged row is a cache miss, not an error: the document itself is the truth.
  if (!heads) return null;
  return { documentId, heads, title: row.title, text: row.text, savedAt: row.saved_at };
}

/** Just the heads (cheap: no text read), to decide whether a row is stale. */
export function readSnapshotHeads(db: Database, documentId: string): string[] | null {
  const row = statement(db, "SELECT heads FROM document_snapshots WHERE document_id = ?").get(documentId) as
    | { heads: string }
    | undefined;
  return row ? parseHeads(row.heads) : null;
}

/** Every row's title and when it was saved (no text, no heads: what a start-up check needs, in one query). */
export function readSnapshotStamps(db: Database): Map<string, { title: string; savedAt: number }> {
  const rows = db.prepare("SELECT document_id, title, saved_at FROM document_snapshots").all() as { document_id: string; title: string; saved_at: number }[];
  return new Map(rows.map((row) => [row.document_id, { title: row.title, savedAt: row.saved_at }]));
}

export function deleteSnapshot(db: Database, documentId: string): void {
  statement(db, "DELETE FROM document_snapshots WHERE document_id = ?").run(documentId);
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

/** Text around the first hit of a search in one stored text. */
export interface SnapshotTextHit {
  documentId: string;
  /** Up to `context` characters either side of the first hit, the hit included. */
  around: string;
  /** Whether the stored text goes on before / after `around`. */
  cutBefore: boolean;
  cutAfter: boolean;
}

/**
 * The stored texts among `ids` that hold every one of `words` (folded, as shared/search-fold.ts folds: case and
 * accents ignored), in the order of `ids`, at most `limit`, each with the window of `context` characters around the
 * first word's first occurrence. chopin_fold keeps one code point for one, so positions in the folded text are
 * positions in the original, and the window is cut from the original text.
 */
export function findSnapshotTexts(
  db: Database,
  ids: readonly string[],
  words: readonly string[],
  limit: number,
  context: number,
): SnapshotTextHit[] {
  if (words.length === 0 || limit <= 0 || ids.length === 0) return [];
  const needleChars = [...words[0]].length;
  const params: Record<string, unknown> = { ids: JSON.stringify(ids), context, tail: needleChars + context, limit };
  words.forEach((word, i) => (params[`w${i}`] = word));
  const every = words.map((_, i) => `instr(f, @w${i}) > 0`).join(" AND ");
  // The folded text is stored with the snapshot (folded once here if a row lacks it); instr/substr count characters
  // (code points), so no window splits one.
  const rows = db
    .prepare(
      `WITH folded AS MATERIALIZED (
         SELECT j.key AS ord, s.document_id AS id, coalesce(s.folded, ${SEARCH_FOLD_FUNCTION}(s.text)) AS f
         FROM json_each(@ids) AS j JOIN document_snapshots AS s ON s.document_id = j.value),
       hits AS MATERIALIZED (SELECT ord, id, instr(f, @w0) AS pos FROM folded WHERE ${every})
       SELECT h.id AS document_id, max(1, h.pos - @context) AS start, h.pos AS pos,
              substr(s.text, max(1, h.pos - @context), h.pos - max(1, h.pos - @context) + @tail + 1) AS around
       FROM hits AS h JOIN document_snapshots AS s ON s.document_id = h.id
       ORDER BY h.ord
       LIMIT @limit`,
    )
    .all(params) as { document_id: string; start: number; pos: number; around: string }[];
  return rows.map((r) => {
    // One character past the window was read: its presence says the text goes on.
    const chars = Array.from(r.around);
    const width = r.pos - r.start + needleChars + context;
    const cutAfter = chars.length > width;
    return {
      documentId: r.document_id,
      around: cutAfter ? chars.slice(0, width).join("") : r.around,
      cutBefore: r.start > 1,
      cutAfter,
    };
  });
}

