/**
 * Body search of the document list: which documents' stored text snapshots hold every word of the query (case and
 * accents ignored, shared/search-fold.ts), with a short excerpt around the first word's first hit so the list can
 * show why a document matched. Reads only `document_snapshots` (never loads an Automerge document), so searching a
 * thousand documents costs one SQLite scan.
 * What must stay true: only the given candidates can match (the caller has applied the archived filter and knows the
 * document), results come newest first and number at most `limit`, and matching folds text exactly as the title
 * match does. A document without a snapshot (too large, or not written yet) is not found by its body; its title
 * still finds it, because titles come from the workspace index.
 */
import type { Database } from "better-sqlite3";
import type { DocumentSummary } from "../../shared/api.js";
import { MAX_LIST_DOCUMENTS, SEARCH_SNIPPET_CONTEXT_CHARS } from "../util/limits.js";
import { findSnapshotTexts, type SnapshotTextHit } from "./snapshot-store.js";

/** Newest first, as the document list orders. */
export function byRecency(a: DocumentSummary, b: DocumentSummary): number {
  return b.updatedAt - a.updatedAt || a.id.localeCompare(b.id);
}

/**
 * The candidates whose snapshot text holds every one of `words` (searchWords of the query), newest first, each with
 * `matchSnippet`; at most `limit`.
 */
export function findBodyMatches(
  db: Database,
  words: readonly string[],
  candidates: readonly DocumentSummary[],
  limit: number = MAX_LIST_DOCUMENTS,
): DocumentSummary[] {
  if (words.length === 0 || candidates.length === 0 || limit <= 0) return [];
  const ordered = [...candidates].sort(byRecency);
  const byId = new Map(ordered.map((d) => [d.id, d]));
  const hits = findSnapshotTexts(db, ordered.map((d) => d.id), words, limit, SEARCH_SNIPPET_CONTEXT_CHARS);
  return hits.map((hit) => ({ ...byId.get(hit.documentId)!, matchSnippet: snippetOf(hit) }));
}

/** One line of text: whitespace runs become one space, with an ellipsis where the text goes on. */
export function snippetOf(hit: Pick<SnapshotTextHit, "around" | "cutBefore" | "cutAfter">): string {
  const line = hit.around.replace(/\s+/g, " ").trim();
  return `${hit.cutBefore ? "…" : ""}${line}${hit.cutAfter ? "…" : ""}`;
}
