/**
 * Body search of the document list: which documents' stored text snapshots contain the query, with a short excerpt
 * around the first hit so the list can show why a document matched. Reads only `document_snapshots` (never loads an
 * Automerge document), so searching a thousand documents costs one SQLite scan.
 * What must stay true: only the given candidates can match (the caller has applied the archived filter and knows the
 * document), results come newest first and number at most `limit`, and matching ignores case like the title match
 * (String.prototype.toLowerCase). A document without a snapshot (too large, or not written yet) is not found by its
 * body; its title still finds it, because titles come from the workspace index.
 */
import type { Database } from "better-sqlite3";
import type { DocumentSummary } from "../../shared/api.js";
import { MAX_LIST_DOCUMENTS, SEARCH_SNIPPET_CONTEXT_CHARS } from "../../shared/limits.js";
import { findSnapshotTextsAscii, iterateSnapshotTexts, type SnapshotTextHit } from "./snapshot-store.js";

const ASCII = /^[\x00-\x7f]*$/;

/** Newest first, as the document list orders. */
export function byRecency(a: DocumentSummary, b: DocumentSummary): number {
  return b.updatedAt - a.updatedAt || a.id.localeCompare(b.id);
}

/**
 * The candidates whose snapshot text contains `needle` (already trimmed and lowercased, as checkQuery returns it),
 * newest first, each with `matchSnippet`; at most `limit`.
 */
export function findBodyMatches(
  db: Database,
  needle: string,
  candidates: readonly DocumentSummary[],
  limit: number = MAX_LIST_DOCUMENTS,
): DocumentSummary[] {
  if (needle.length === 0 || candidates.length === 0 || limit <= 0) return [];
  const ordered = [...candidates].sort(byRecency);
  const byId = new Map(ordered.map((d) => [d.id, d]));
  const ids = ordered.map((d) => d.id);
  const hits = ASCII.test(needle)
    ? findSnapshotTextsAscii(db, ids, needle, limit, SEARCH_SNIPPET_CONTEXT_CHARS)
    : scanTexts(db, ids, needle, limit);
  return hits.map((hit) => ({ ...byId.get(hit.documentId)!, matchSnippet: snippetOf(hit) }));
}

/** One line of text: whitespace runs become one space, with an ellipsis where the text goes on. */
export function snippetOf(hit: Pick<SnapshotTextHit, "around" | "cutBefore" | "cutAfter">): string {
  const line = hit.around.replace(/\s+/g, " ").trim();
  return `${hit.cutBefore ? "…" : ""}${line}${hit.cutAfter ? "…" : ""}`;
}

/**
 * The window around the first occurrence of `needle` in `text` ignoring case, or null. Exported for tests: this is
 * the path for queries with non-ASCII letters, which SQLite cannot fold.
 */
export function hitIn(text: string, needle: string, context: number = SEARCH_SNIPPET_CONTEXT_CHARS): Omit<SnapshotTextHit, "documentId"> | null {
  const lower = text.toLowerCase();
  const at = lower.indexOf(needle);
  if (at < 0) return null;
  // A few characters (e.g. "İ") lowercase to two; then offsets differ and the excerpt is taken from the lowered text.
  const source = lower.length === text.length ? text : lower;
  let start = Math.max(0, at - context);
  let end = Math.min(source.length, at + needle.length + context);
  // Never split a surrogate pair at either edge.
  if (start > 0 && isLowSurrogate(source.charCodeAt(start))) start -= 1;
  if (end < source.length && isLowSurrogate(source.charCodeAt(end))) end += 1;
  return { around: source.slice(start, end), cutBefore: start > 0, cutAfter: end < source.length };
}

function scanTexts(db: Database, ids: readonly string[], needle: string, limit: number): SnapshotTextHit[] {
  const hits: SnapshotTextHit[] = [];
  for (const { documentId, text } of iterateSnapshotTexts(db, ids)) {
    const hit = hitIn(text, needle);
    if (hit) hits.push({ documentId, ...hit });
    if (hits.length >= limit) break;
  }
  return hits;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
