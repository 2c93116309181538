/**
 * This device's record of plan handoffs from agent chats (issue #27, local schema 13, never synced): which plan id a
 * handoff key names. A handoff reserves its row before its plan is made, so a retry (the same tool call, the same
 * clientRequestId), also after a crash between the reservation and the plan reaching disk, makes the plan at the same
 * id, never a second plan; the row is marked committed once the plan is stored and listed.
 *
 * What must stay true: the PRIMARY KEY (chat_plan_id, handoff_key) decides which plan id a key names, not a read
 * before the write (`reserveHandoff` inserts with ON CONFLICT DO NOTHING and reads back the row that stands); a
 * committed row never goes back to uncommitted.
 */
import type { Database } from "better-sqlite3";

export interface HandoffRow {
  documentId: string;
  /** Epoch ms the plan was stored and listed; null while it may not have been made yet. */
  committedAt: number | null;
}

export interface HandoffReservation {
  chatPlanId: string;
  key: string;
  /** The plan id to use when this key names none yet. */
  documentId: string;
  at: number;
}

/** The row for the key: the one inserted now with `documentId`, or the one an earlier call inserted. */
export function reserveHandoff(db: Database, reservation: HandoffReservation): HandoffRow {
  db.prepare(
    "INSERT INTO plan_handoffs (chat_plan_id, handoff_key, document_id, reserved_at) VALUES (?, ?, ?, ?) ON CONFLICT (chat_plan_id, handoff_key) DO NOTHING",
  ).run(reservation.chatPlanId, reservation.key, reservation.documentId, reservation.at);
  return findHandoff(db, reservation.chatPlanId, reservation.key)!;
}

export function findHandoff(db: Database, chatPlanId: string, key: string): HandoffRow | null {
  const row = db.prepare("SELECT document_id, committed_at FROM plan_handoffs WHERE chat_plan_id = ? AND handoff_key = ?").get(chatPlanId, key) as
    | { document_id: string; committed_at: number | null }
    | undefined;
  return row ? { documentId: row.document_id, committedAt: row.committed_at } : null;
}

/** The key's plan is stored and listed (idempotent: the first time stays). */
export function commitHandoff(db: Database, chatPlanId: string, key: string, at: number): void {
  db.prepare("UPDATE plan_handoffs SET committed_at = ? WHERE chat_plan_id = ? AND handoff_key = ? AND committed_at IS NULL").run(at, chatPlanId, key);
}
