/**
 * This device's own records about conversations (local schema 8), none of which syncs: the change that carried each
 * message sent from here (so "not yet delivered" survives a restart while offline), the composer's draft per plan,
 * and how far the person has read each conversation.
 *
 * What must stay true: one outbox row per (plan, entry), the first send's change kept (a retry makes no new change);
 * a read mark only moves forward in causal order.
 */
import type { Database } from "better-sqlite3";

/** Where someone has read to: an entry's causal place (seq, time, id), compared as entries are ordered. */
export interface ReadMark {
  seq: number;
  at: number;
  entryId: string;
}

export class ConversationRecords {
  constructor(private readonly db: Database) {}

  /** Records the change that carried a message sent from here; a second record of the same entry keeps the first. */
  noteSent(planId: string, entryId: string, changeHash: string, now: number): void {
    this.db
      .prepare("INSERT INTO conversation_outbox (plan_id, entry_id, change_hash, sent_at) VALUES (?, ?, ?, ?) ON CONFLICT (plan_id, entry_id) DO NOTHING")
      .run(planId, entryId, changeHash, now);
  }

  /** The change each message sent from here rode in, by entry id. */
  /** The plans this device sent messages in, most recent first, at most `limit`. */
  plansWithSentMessages(limit: number): string[] {
    const rows = this.db.prepare("SELECT plan_id FROM conversation_outbox GROUP BY plan_id ORDER BY MAX(sent_at) DESC LIMIT ?").all(limit) as { plan_id: string }[];
    return rows.map((row) => row.plan_id);
  }

  sentChanges(planId: string): Map<string, string> {
    const rows = this.db.prepare("SELECT entry_id, change_hash FROM conversation_outbox WHERE plan_id = ?").all(planId) as { entry_id: string; change_hash: string }[];
    return new Map(rows.map((row) => [row.entry_id, row.change_hash]));
  }

  draft(planId: string): string {
    const row = this.db.prepare("SELECT text FROM conversation_drafts WHERE plan_id = ?").get(planId) as { text: string } | undefined;
    return row?.text ?? "";
  }

  /** Keeps the draft; an empty one is forgotten. */
  setDraft(planId: string, text: string, now: number): void {
    if (text === "") this.db.prepare("DELETE FROM conversation_drafts WHERE plan_id = ?").run(planId);
    else
      this.db
        .prepare("INSERT INTO conversation_drafts (plan_id, text, updated_at) VALUES (?, ?, ?) ON CONFLICT (plan_id) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at")
        .run(planId, text, now);
  }

  readMark(planId: string): ReadMark | null {
    const row = this.db.prepare("SELECT seq, at, entry_id FROM conversation_reads WHERE plan_id = ?").get(planId) as { seq: number; at: number; entry_id: string } | undefined;
    return row ? { seq: row.seq, at: row.at, entryId: row.entry_id } : null;
  }

  /** Moves the read mark to `mark` unless it already stands at or after it. */
  markRead(planId: string, mark: ReadMark): void {
    const current = this.readMark(planId);
    if (current && compareMarks(current, mark) >= 0) return;
    this.db
      .prepare("INSERT INTO conversation_reads (plan_id, seq, at, entry_id) VALUES (?, ?, ?, ?) ON CONFLICT (plan_id) DO UPDATE SET seq = excluded.seq, at = excluded.at, entry_id = excluded.entry_id")
      .run(planId, mark.seq, mark.at, mark.entryId);
  }

  /** Forgets everything about a plan's conversation (the plan left this device). */
  forget(planId: string): void {
    for (const table of ["conversation_outbox", "conversation_drafts", "conversation_reads"]) this.db.prepare(`DELETE FROM ${table} WHERE plan_id = ?`).run(planId);
  }
}

export function compareMarks(a: ReadMark, b: ReadMark): number {
  return a.seq - b.seq || a.at - b.at || (a.entryId < b.entryId ? -1 : a.entryId > b.entryId ? 1 : 0);
}
