/**
 * This device's own record of which documents it shares with which relay's team (relay_shares, local schema 7). It
 * is the only thing that lets a document leave the device (main/documents/share-scope.ts): an entry a teammate writes
 * into the team index never creates a row for a document this device holds.
 *
 * What must stay true: one row per (document, relay address); a row names the relay's team index once the relay
 * named it ('' until then) and then matches only that team; `origin` says whether a person here shared it ('here') or
 * it came from that team's list while this device did not hold it ('team'); `entered_at` is when this device first saw
 * it on that team's list, so a later absence means a teammate removed it, never that it still waits to be entered.
 */
import type { Database } from "better-sqlite3";
import { statement } from "../../shared/node/statements.js";

/** The relay a share belongs to: its address, and its team index id once the relay named it. */
export interface RelayScope {
  url: string;
  teamIndexId: string | null;
}

export type ShareOrigin = "here" | "team";

export interface ShareRow {
  documentId: string;
  origin: ShareOrigin;
  sharedAt: number;
  enteredAt: number | null;
}

interface Row {
  document_id: string;
  origin: ShareOrigin;
  shared_at: number;
  entered_at: number | null;
}

const toShare = (row: Row): ShareRow => ({ documentId: row.document_id, origin: row.origin, sharedAt: row.shared_at, enteredAt: row.entered_at });

/** Every share of `scope`: rows bound to its team, and rows made for its address before the team was known. */
export function sharesOf(db: Database, scope: RelayScope): ShareRow[] {
  const rows = statement(
    db,
    "SELECT document_id, origin, shared_at, entered_at FROM relay_shares WHERE relay_url = ? AND team_index_id IN ('', ?) ORDER BY document_id",
  ).all(scope.url, scope.teamIndexId ?? "") as Row[];
  return rows.map(toShare);
}

/**
 * Records that `documentId` is shared with `scope`'s team. A row for the same address bound to another team (the relay
 * was reset) is replaced; true when a row was written.
 */
export function recordShare(db: Database, documentId: string, scope: RelayScope, origin: ShareOrigin, sharedAt: number, enteredAt: number | null): boolean {
  const result = statement(
    db,
    `INSERT INTO relay_shares (document_id, relay_url, team_index_id, origin, shared_at, entered_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(document_id, relay_url) DO UPDATE SET team_index_id = excluded.team_index_id, origin = excluded.origin,
         shared_at = excluded.shared_at, entered_at = excluded.entered_at
       WHERE relay_shares.team_index_id NOT IN ('', excluded.team_index_id)`,
  ).run(documentId, scope.url, scope.teamIndexId ?? "", origin, sharedAt, enteredAt);
  return result.changes > 0;
}

/** This device saw the document on the scope's team list. */
export function markEntered(db: Database, documentId: string, scope: RelayScope, enteredAt: number): void {
  statement(db, "UPDATE relay_shares SET entered_at = ? WHERE document_id = ? AND relay_url = ? AND entered_at IS NULL").run(
    enteredAt,
    documentId,
    scope.url,
  );
}

/** The relay named its team: shares made for its address before then belong to that team from now on. */
export function bindTeam(db: Database, url: string, teamIndexId: string): void {
  statement(db, "UPDATE relay_shares SET team_index_id = ? WHERE relay_url = ? AND team_index_id = ''").run(teamIndexId, url);
}

/** The document is no longer shared with the relay at `url` (a teammate removed it from that team's list). */
export function forgetShare(db: Database, documentId: string, url: string): void {
  statement(db, "DELETE FROM relay_shares WHERE document_id = ? AND relay_url = ?").run(documentId, url);
}

/** The document left this device: no relay keeps a share of it. */
export function forgetAllShares(db: Database, documentId: string): void {
  statement(db, "DELETE FROM relay_shares WHERE document_id = ?").run(documentId);
}
