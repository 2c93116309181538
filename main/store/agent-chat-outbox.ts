/**
 * Agent chats' outbox on this device (issue #27, local schema 10): one row per send, in send order (`seq`, never
 * reused), so a message written offline, while the team is not known yet, or just before the app stops is delivered
 * once, in order, later (main/agent-chat/chat-outbox.ts drains it). Nothing here syncs.
 *
 * What must stay true:
 *  - one row per clientRequestId, whatever the code does: the UNIQUE constraint refuses a second (a retry finds the
 *    first); the same id with another text or agent is refused 'invalid-input', the row unchanged;
 *  - a row's chat (scope, agent, person) and text never change, except that a 'pending' scope (the relay's team not
 *    known when queued) becomes that relay's team once it is known;
 *  - a person keeps at most MAX_AGENT_CHAT_UNDELIVERED_PER_PERSON rows not delivered; delivered rows are kept, the newest
 *    AGENT_CHAT_DELIVERED_ROWS_KEPT, so retries of recent sends find them;
 *  - a discarded send's row is deleted only while it is not delivered, by the DELETE's own WHERE (never a delivered
 *    one, whatever the code read before); its key is then free, so a later send with it is a new row at the end.
 */
import type { Database } from "better-sqlite3";
import { ChopinError, type ErrorShape } from "../../shared/errors.js";
import { AGENT_CHAT_DELIVERED_ROWS_KEPT, MAX_AGENT_CHAT_UNDELIVERED_PER_PERSON } from "../util/limits.js";

/** Whose profiles a chat is in: this device's, a relay's team (by its index id), or a relay's not known yet (by URL). */
export interface OutboxScope {
  kind: "device" | "team" | "pending";
  id: string;
}

export interface OutboxChat {
  scope: OutboxScope;
  agentId: string;
  person: string;
}

export interface OutboxRow extends OutboxChat {
  seq: number;
  clientRequestId: string;
  text: string;
  queuedAt: number;
  /** The conversation entry it became; null until delivered. */
  entryId: string | null;
  deliveredAt: number | null;
  /** The last attempt's refusal; null before any attempt failed (and once delivered, whatever came before). */
  error: ErrorShape | null;
  /** Set when refused for good: not tried again until it is sent again. */
  failedAt: number | null;
}

interface StoredRow {
  seq: number;
  client_request_id: string;
  scope_kind: OutboxScope["kind"];
  scope_id: string;
  agent_id: string;
  person: string;
  text: string;
  queued_at: number;
  entry_id: string | null;
  delivered_at: number | null;
  error_code: string | null;
  error_message: string | null;
  failed_at: number | null;
}

const COLUMNS = "seq, client_request_id, scope_kind, scope_id, agent_id, person, text, queued_at, entry_id, delivered_at, error_code, error_message, failed_at";

function rowOf(stored: StoredRow): OutboxRow {
  return {
    seq: stored.seq,
    clientRequestId: stored.client_request_id,
    scope: { kind: stored.scope_kind, id: stored.scope_id },
    agentId: stored.agent_id,
    person: stored.person,
    text: stored.text,
    queuedAt: stored.queued_at,
    entryId: stored.entry_id,
    deliveredAt: stored.delivered_at,
    error: stored.error_code !== null ? ({ code: stored.error_code, message: stored.error_message ?? "" } as ErrorShape) : null,
    failedAt: stored.failed_at,
  };
}

export class AgentChatOutboxRecords {
  constructor(private readonly db: Database) {}

  /**
   * Queues a send, or finds the row its clientRequestId already has (`inserted: false`). Refuses 'invalid-input' when
   * that row is another text or agent's, and 'too-large' when the person already keeps the most undelivered sends.
   */
  queue(chat: OutboxChat, clientRequestId: string, text: string, now: number): { row: OutboxRow; inserted: boolean } {
    return this.db.transaction(() => {
      const existing = this.byRequest(clientRequestId);
      if (existing) {
        if (existing.text !== text || existing.agentId !== chat.agentId) {
          throw new ChopinError("invalid-input", "clientRequestId: this key was already used for another message (another text or agent); a retry sends the same message with the same key. Nothing was sent.", { field: "clientRequestId" });
        }
        return { row: existing, inserted: false };
      }
      const waiting = (this.db.prepare("SELECT count(*) AS n FROM agent_chat_outbox WHERE person = ? AND delivered_at IS NULL").get(chat.person) as { n: number }).n;
      if (waiting >= MAX_AGENT_CHAT_UNDELIVERED_PER_PERSON) {
        throw new ChopinError("too-large", `This device already keeps ${MAX_AGENT_CHAT_UNDELIVERED_PER_PERSON} of your messages to agents that are not delivered yet: once they are (when the relay is reached), send again. Nothing was sent.`);
      }
      // A plain INSERT: a duplicate key is the constraint's to refuse, not this code's.
      const { lastInsertRowid } = this.db
        .prepare("INSERT INTO agent_chat_outbox (client_request_id, scope_kind, scope_id, agent_id, person, text, queued_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
        .run(clientRequestId, chat.scope.kind, chat.scope.id, chat.agentId, chat.person, text, now);
      return { row: this.#bySeq(Number(lastInsertRowid))!, inserted: true };
    })();
  }

  byRequest(clientRequestId: string): OutboxRow | null {
    const stored = this.db.prepare(`SELECT ${COLUMNS} FROM agent_chat_outbox WHERE client_request_id = ?`).get(clientRequestId) as StoredRow | undefined;
    return stored ? rowOf(stored) : null;
  }

  /**
   * The person's sends in `scope` (and, for a team, those queued 'pending' on `pendingRelay`, its relay) not delivered,
   * in send order; only those to `agentId` when given; those refused for good too when `withFailed`.
   */
  undelivered(scope: OutboxScope, person: string, options: { pendingRelay?: string | null; agentId?: string; withFailed?: boolean } = {}): OutboxRow[] {
    const pending = options.pendingRelay ?? null;
    const rows = this.db
      .prepare(
        `SELECT ${COLUMNS} FROM agent_chat_outbox
          WHERE person = ? AND delivered_at IS NULL
            AND ((scope_kind = ? AND scope_id = ?) OR (scope_kind = 'pending' AND scope_id = ?))
            AND (? IS NULL OR agent_id = ?) AND (? = 1 OR failed_at IS NULL)
          ORDER BY seq`,
      )
      .all(person, scope.kind, scope.id, pending, options.agentId ?? null, options.agentId ?? null, options.withFailed ? 1 : 0) as StoredRow[];
    return rows.map(rowOf);
  }

  /** The relay's team became known: sends queued while it was not are that team's (returns how many). */
  resolvePending(relayUrl: string, teamIndexId: string): number {
    return this.db.prepare("UPDATE agent_chat_outbox SET scope_kind = 'team', scope_id = ? WHERE scope_kind = 'pending' AND scope_id = ? AND delivered_at IS NULL").run(teamIndexId, relayUrl).changes;
  }

  /** Delivered as `entryId`; the oldest delivered rows past AGENT_CHAT_DELIVERED_ROWS_KEPT go. */
  delivered(seq: number, entryId: string, now: number): void {
    this.db.transaction(() => {
      this.db.prepare("UPDATE agent_chat_outbox SET entry_id = ?, delivered_at = ?, error_code = NULL, error_message = NULL, failed_at = NULL WHERE seq = ?").run(entryId, now, seq);
      this.db
        .prepare("DELETE FROM agent_chat_outbox WHERE delivered_at IS NOT NULL AND seq NOT IN (SELECT seq FROM agent_chat_outbox WHERE delivered_at IS NOT NULL ORDER BY seq DESC LIMIT ?)")
        .run(AGENT_CHAT_DELIVERED_ROWS_KEPT);
    })();
  }

  /** An attempt was refused: kept with the refusal; `forGood` keeps it from being tried until it is sent again. */
  refused(seq: number, error: ErrorShape, forGood: boolean, now: number): void {
    this.db.prepare("UPDATE agent_chat_outbox SET error_code = ?, error_message = ?, failed_at = ? WHERE seq = ? AND delivered_at IS NULL").run(error.code, error.message, forGood ? now : null, seq);
  }

  /** A send refused for good was sent again (same key, same message): it waits to be tried again, in its place. */
  rearm(seq: number): void {
    this.db.prepare("UPDATE agent_chat_outbox SET failed_at = NULL WHERE seq = ?").run(seq);
  }

  /**
   * Discards the person's send to the agent under this key: deleted only while not delivered (the statement's WHERE
   * decides, not a read before it). True when a row was deleted.
   */
  discard(clientRequestId: string, agentId: string, person: string): boolean {
    return this.db.prepare("DELETE FROM agent_chat_outbox WHERE client_request_id = ? AND agent_id = ? AND person = ? AND delivered_at IS NULL").run(clientRequestId, agentId, person).changes === 1;
  }

  /** The row at `seq` is still there and not delivered (not discarded meanwhile): the drain asks before delivering it. */
  stillUndelivered(seq: number): boolean {
    return this.db.prepare("SELECT 1 FROM agent_chat_outbox WHERE seq = ? AND delivered_at IS NULL").get(seq) !== undefined;
  }

  #bySeq(seq: number): OutboxRow | null {
    const stored = this.db.prepare(`SELECT ${COLUMNS} FROM agent_chat_outbox WHERE seq = ?`).get(seq) as StoredRow | undefined;
    return stored ? rowOf(stored) : null;
  }
}
