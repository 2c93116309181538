/**
 * Stored results of idempotent MCP calls. The PRIMARY KEY on idempotency_key is what refuses a second result for a
 * key: `insertReplay` does a plain INSERT and reports the constraint's refusal, so two racing writers cannot both win.
 * Rows survive restarts; a retried call with the same key and fingerprint gets the stored result back, for
 * MCP_REPLAY_RETENTION_MS and among the newest MAX_MCP_REPLAYS (pruneReplays).
 */
import type { Database } from "better-sqlite3";
import { MAX_MCP_REPLAYS, MCP_REPLAY_RETENTION_MS } from "../util/limits.js";

export interface ReplayRow {
  idempotencyKey: string;
  tool: string;
  fingerprint: string;
  resultJson: string;
  createdAt: number;
}

export function findReplay(db: Database, idempotencyKey: string): ReplayRow | null {
  const row = db
    .prepare(
      "SELECT idempotency_key, tool, fingerprint, result_json, created_at FROM mcp_replays WHERE idempotency_key = ?",
    )
    .get(idempotencyKey) as
    | { idempotency_key: string; tool: string; fingerprint: string; result_json: string; created_at: number }
    | undefined;
  if (!row) return null;
  return {
    idempotencyKey: row.idempotency_key,
    tool: row.tool,
    fingerprint: row.fingerprint,
    resultJson: row.result_json,
    createdAt: row.created_at,
  };
}

/** Inserts a replay; returns false when the key is already taken (refused by the PRIMARY KEY, not by a read). */
export function insertReplay(db: Database, row: ReplayRow): boolean {
  try {
    db.prepare(
      "INSERT INTO mcp_replays (idempotency_key, tool, fingerprint, result_json, created_at) VALUES (?, ?, ?, ?, ?)",
    ).run(row.idempotencyKey, row.tool, row.fingerprint, row.resultJson, row.createdAt);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_PRIMARYKEY") return false;
    throw error;
  }
}

/** Drops results older than `retentionMs` and all but the newest `maxRows`; returns how many went. */
export function pruneReplays(db: Database, now: number, retentionMs = MCP_REPLAY_RETENTION_MS, maxRows = MAX_MCP_REPLAYS): number {
  const expired = db.prepare("DELETE FROM mcp_replays WHERE created_at < ?").run(now - retentionMs).changes;
  const surplus = db
    .prepare(
      `DELETE FROM mcp_replays WHERE idempotency_key IN
         (SELECT idempotency_key FROM mcp_replays ORDER BY created_at DESC, idempotency_key LIMIT -1 OFFSET ?)`,
    )
    .run(maxRows).changes;
  return expired + surplus;
}
