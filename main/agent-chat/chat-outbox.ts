/**
 * The durable, ordered outbox of agent chat sends (issue #27): a send is first a row in this device's database
 * (main/store/agent-chat-outbox.ts), then a drain delivers rows in send order. A message written while the relay's team
 * is not known yet, or as the app stops, waits there and is delivered once, in order, when it can be: when the team
 * becomes known, at start, after a restart.
 *
 * What must stay true:
 *  - sends are admitted (checked and queued) one at a time in call order, so send order is call order;
 *  - one drain at a time; within it rows go in send order, and a row that cannot be delivered now keeps every later
 *    row of this app's chats waiting behind it (what kept it, the team, the switch or the disk, keeps them too);
 *  - a delivery is idempotent (the plan's begin and the conversation's post both are, by the derived id and the
 *    clientRequestId), so a delivery repeated after the app died between posting and marking makes nothing twice;
 *  - a row is delivered only while this app is in its chat's scope as its person; otherwise it waits, untouched;
 *  - a refusal for good (the agent removed, the plan unreadable...) is kept on the row and shown, never dropped: the
 *    later rows go on, and sending it again tries again; once closing, nothing is marked and nothing new begins;
 *  - a discard removes a row only while it is not delivered and never the row the drain is delivering: it waits for
 *    that delivery to settle (moments: a local post), then deletes if still undelivered or refuses as delivered. The
 *    drain asks that each row is still there just before delivering it, in the same synchronous stretch that names
 *    it the row being delivered, so a row discarded after the drain listed it is never delivered.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import type { AgentChatOutboxMessage, AgentChatSendInput, AgentChatSendResult, ConversationEntryView } from "../../shared/api.js";
import { ChopinError, type ErrorCode, type ErrorShape } from "../../shared/errors.js";
import type { AgentChatOutboxRecords, OutboxChat, OutboxRow, OutboxScope } from "../store/agent-chat-outbox.js";

/** Refusals no later attempt would change by itself: kept on the row, which is not tried again until sent again. */
const REFUSED_FOR_GOOD: ReadonlySet<ErrorCode> = new Set(["agent-not-found", "invalid-document", "forbidden", "document-archived", "invalid-input", "too-large", "not-found"]);

/** A send whose row was discarded while it waited for the drain: it was not delivered, and is not kept. */
const DISCARDED_WHILE_SENT = "This message was discarded before it was delivered, so it was not sent.";

export interface Delivered {
  planId: DocumentId;
  entry: ConversationEntryView;
  created: boolean;
}

/** Where this app's chats are now: its profiles' scope ('pending' on the relay's URL while its team is unknown), its person. */
export interface OutboxHere {
  scope: OutboxScope;
  person: string;
  /** The configured relay's URL (a 'team' scope's relay, whose 'pending' rows become the team's). */
  relayUrl: string | null;
}

export interface ChatOutboxDeps {
  records: AgentChatOutboxRecords;
  here(): OutboxHere;
  /** Delivers one row (begins its chat's plan, posts its message): idempotent; refuses as they do. */
  deliver(row: OutboxRow): Promise<Delivered>;
  /** A row of the agent's chat was queued, delivered or refused: what a read lists as waiting changed. */
  changed?(agentId: string): void;
  now?: () => number;
}

type Outcome = { delivered: Delivered } | { refused: ErrorShape };

export function outboxMessageOf(row: OutboxRow): AgentChatOutboxMessage {
  return { clientRequestId: row.clientRequestId, text: row.text, queuedAt: row.queuedAt, status: row.failedAt !== null ? "failed" : "waiting", error: row.error };
}

function shapeOf(error: unknown): ErrorShape {
  if (error instanceof ChopinError) return { code: error.code, message: error.message };
  return { code: "internal", message: error instanceof Error ? error.message : String(error) };
}

const sameScope = (a: OutboxScope, b: OutboxScope) => a.kind === b.kind && a.id === b.id;

export class ChatOutbox {
  readonly #deps: ChatOutboxDeps;
  readonly #now: () => number;
  #admissions: Promise<unknown> = Promise.resolve();
  #draining: Promise<void> | null = null;
  #again = false;
  #closed = false;
  /** The row the drain is delivering now, and its delivery and marking settling. */
  #delivering: { clientRequestId: string; settled: Promise<unknown> } | null = null;
  /** Sends waiting for their own row's outcome (by clientRequestId, how many), and the outcomes a drain left them. */
  readonly #waiters = new Map<string, number>();
  readonly #outcomes = new Map<string, Outcome>();

  constructor(deps: ChatOutboxDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  /**
   * Queues a send (`chatOf` checks it and names its chat; both in call order), then drains. Answers the delivered entry,
   * or the queued message when it cannot be delivered now; throws the refusal when its row is refused for good.
   */
  async send(chatOf: () => Promise<OutboxChat>, input: AgentChatSendInput): Promise<AgentChatSendResult> {
    const admitted = this.#admissions.then(async () => this.#deps.records.queue(await chatOf(), input.clientRequestId, input.text, this.#now()));
    this.#admissions = admitted.catch(() => undefined);
    const { row, inserted } = await admitted;
    if (inserted) this.#deps.changed?.(row.agentId);
    // Already delivered: delivering again posts nothing (the conversation's key) and gives the entry back.
    if (row.deliveredAt !== null) return { queued: false, ...(await this.#deps.deliver(row)), created: false };
    if (row.failedAt !== null) this.#deps.records.rearm(row.seq);

    const id = row.clientRequestId;
    this.#waiters.set(id, (this.#waiters.get(id) ?? 0) + 1);
    let outcome: Outcome | undefined;
    try {
      await this.drain();
      outcome = this.#outcomes.get(id);
    } finally {
      const left = this.#waiters.get(id)! - 1;
      if (left > 0) this.#waiters.set(id, left);
      else {
        this.#waiters.delete(id);
        this.#outcomes.delete(id);
      }
    }
    // Created: this delivery made the entry (a send refused for good, then sent again, makes it now).
    if (outcome && "delivered" in outcome) return { queued: false, ...outcome.delivered };
    if (outcome) throw new ChopinError(outcome.refused.code, outcome.refused.message);
    const now = this.#deps.records.byRequest(id);
    if (now === null) throw new ChopinError("not-found", DISCARDED_WHILE_SENT);
    return { queued: true, planId: null, entry: null, created: inserted, message: outboxMessageOf(now) };
  }

  /**
   * Discards the person's send to the agent under `clientRequestId` while it is not delivered (waiting or refused for
   * good) and answers what it was. Waits while the drain is delivering that very row: the answer is then what that
   * delivery settled. 'revision-conflict' when it is delivered (it is in the conversation: withdraw it there),
   * 'not-found' when nothing is kept under that key for this chat (never sent here, discarded already, or delivered
   * so long ago that its row is gone).
   */
  async discard(chat: { agentId: string; person: string }, clientRequestId: string): Promise<AgentChatOutboxMessage> {
    // A loop: once that delivery settles, a later pass may take the same row up again (it was kept waiting).
    for (let current = this.#delivering; current?.clientRequestId === clientRequestId; current = this.#delivering) await current.settled;
    // From here to the DELETE is one synchronous stretch: the drain cannot take the row up in between.
    const row = this.#deps.records.byRequest(clientRequestId);
    if (row === null || row.agentId !== chat.agentId || row.person !== chat.person) {
      throw new ChopinError("not-found", "No message of yours to this agent waits under that clientRequestId (it was never sent from this device, or was discarded already), so nothing was discarded.");
    }
    if (row.deliveredAt !== null || !this.#deps.records.discard(clientRequestId, chat.agentId, chat.person)) {
      throw new ChopinError("revision-conflict", "This message was already delivered: it is in the conversation, so it was not discarded. Withdraw it there instead.", { entryId: row.entryId });
    }
    this.#deps.changed?.(row.agentId);
    return outboxMessageOf(row);
  }

  /** This chat's sends not delivered yet, in send order (those refused for good too). */
  waiting(chat: OutboxChat, relayUrl: string | null): AgentChatOutboxMessage[] {
    const pendingRelay = chat.scope.kind === "team" ? relayUrl : null;
    return this.#deps.records.undelivered(chat.scope, chat.person, { agentId: chat.agentId, pendingRelay, withFailed: true }).map(outboxMessageOf);
  }

  /** Delivers what can be, in order; resolves once no row that could be delivered is left. One drain at a time. */
  drain(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#draining) {
      this.#again = true;
      return this.#draining;
    }
    this.#draining = (async () => {
      try {
        do {
          this.#again = false;
          await this.#pass();
        } while (this.#again && !this.#closed);
      } catch {
        // The database refused (disk, closing): the rows stay as they are, for the next drain.
      } finally {
        this.#draining = null;
      }
    })();
    return this.#draining;
  }

  /** The app is stopping: nothing new begins, and the drain under way ends at its row (marked, or left waiting). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#draining;
  }

  async #pass(): Promise<void> {
    const here = this.#deps.here();
    if (here.scope.kind === "team" && here.relayUrl !== null) this.#deps.records.resolvePending(here.relayUrl, here.scope.id);
    for (const row of this.#deps.records.undelivered(here.scope, here.person)) {
      // The scope or the person changed under the drain: the change drains again, with its own rows.
      const still = this.#deps.here();
      if (this.#closed || !sameScope(still.scope, row.scope) || still.person !== row.person) return;
      // Discarded since this pass listed it: never delivered. Asked in the same stretch that names it the drain's row.
      if (!this.#deps.records.stillUndelivered(row.seq)) continue;
      const step = this.#deliverOne(row);
      this.#delivering = { clientRequestId: row.clientRequestId, settled: step.catch(() => undefined) };
      try {
        if ((await step) === "stop") return;
      } finally {
        this.#delivering = null;
      }
    }
  }

  /** Delivers one row and marks it: "stop" when the later rows must wait (kept waiting, or closing). */
  async #deliverOne(row: OutboxRow): Promise<"next" | "stop"> {
    try {
      const delivered = await this.#deps.deliver(row);
      this.#deps.records.delivered(row.seq, delivered.entry.id, this.#now());
      this.#deps.changed?.(row.agentId);
      this.#settle(row.clientRequestId, { delivered });
      return "next";
    } catch (error) {
      if (this.#closed) return "stop"; // Stopping: the row waits for the next run, untouched.
      const shape = shapeOf(error);
      const forGood = REFUSED_FOR_GOOD.has(shape.code);
      this.#deps.records.refused(row.seq, shape, forGood, this.#now());
      this.#deps.changed?.(row.agentId);
      if (!forGood) return "stop"; // The later rows wait behind it, in order.
      this.#settle(row.clientRequestId, { refused: shape });
      return "next";
    }
  }

  #settle(clientRequestId: string, outcome: Outcome): void {
    if (this.#waiters.has(clientRequestId)) this.#outcomes.set(clientRequestId, outcome);
  }
}
