/**
 * The conversations part of the window's test double (memory-bridge.ts): the ConversationsApi contract kept in memory
 * (shared/api-contract.ts runs against it and the real core alike). Entry ids are counters here, not derived hashes;
 * what the contract pins is the same: one entry per (author, clientRequestId), causal order, pages, read marks.
 */
import type { ConversationEntryView, ConversationsApi, DocumentDetail } from "../../../shared/api.js";
import { ChopinError } from "../../../shared/errors.js";
import { CONVERSATION_PAGE_DEFAULT_ENTRIES } from "../../../shared/limits.js";
import type { PersonAuthor } from "../../../shared/schema/conversation.js";

export interface MemoryConversationDeps {
  /** The plan, or a not-found refusal. */
  plan(id: string): DocumentDetail;
  person(): PersonAuthor;
  now(): number;
  changed(documentId: string): void;
}

export interface MemoryConversations extends ConversationsApi {
  entriesOf(id: string): ConversationEntryView[];
  /** This person's card of a plan handed off from their agent chat (issue #27), once per clientRequestId. */
  recordHandoff(id: string, input: { text: string; handoff: NonNullable<ConversationEntryView["handoff"]>; clientRequestId: string }): ConversationEntryView;
  /** A teammate's (or the Planner's) message arriving, as the relay would bring it: unread, not this person's. */
  receive(id: string, message: Pick<ConversationEntryView, "text" | "author"> & Partial<Pick<ConversationEntryView, "to" | "turn" | "boundary" | "tools" | "denial" | "handoff" | "failed">>): ConversationEntryView;
}

export function memoryConversations(deps: MemoryConversationDeps): MemoryConversations {
  const byPlan = new Map<string, ConversationEntryView[]>();
  const requests = new Map<string, string>();
  const drafts = new Map<string, string>();
  const readThrough = new Map<string, number>();
  let nextId = 0;
  const entriesOf = (id: string) => {
    deps.plan(id);
    let entries = byPlan.get(id);
    if (!entries) byPlan.set(id, (entries = []));
    return entries;
  };
  /** A new entry at the end of `id`'s conversation: the next counter id and seq, stamped now (the caller says it). */
  const append = (id: string, fields: Omit<ConversationEntryView, "id" | "seq" | "at">): ConversationEntryView => {
    const entries = entriesOf(id);
    const entry: ConversationEntryView = { id: (++nextId).toString(16).padStart(32, "0"), seq: (entries.at(-1)?.seq ?? 0) + 1, at: deps.now(), ...fields };
    entries.push(entry);
    return entry;
  };
  /** This person's entry sent now under `clientRequestId`: its one answer, and read by sending it. */
  const sendMine = (id: string, clientRequestId: string, fields: Omit<ConversationEntryView, "id" | "seq" | "at" | "author" | "mine" | "delivery" | "unread">) => {
    const entry = append(id, { author: deps.person(), mine: true, delivery: "local", unread: false, ...fields });
    requests.set(`${id}\n${clientRequestId}`, entry.id);
    readThrough.set(id, entriesOf(id).length - 1);
    deps.changed(id);
    return entry;
  };
  const view = (id: string, entry: ConversationEntryView): ConversationEntryView => {
    const mark = readThrough.get(id) ?? -1;
    const changedSince = (reference: NonNullable<ConversationEntryView["references"]>[number]) => {
      try {
        return deps.plan(reference.documentId).revision !== reference.revision;
      } catch {
        return false;
      }
    };
    const references = entry.references?.map((reference) => ({ ...reference, changedSince: changedSince(reference) }));
    return { ...entry, ...(references ? { references } : {}), delivery: deps.plan(id).shared ? "delivered" : "local", unread: !entry.mine && entriesOf(id).indexOf(entry) > mark };
  };
  return {
    entriesOf,
    receive(id, message) {
      const entry = append(id, { to: "room", ...message, mine: false, delivery: "delivered", unread: true });
      deps.changed(id);
      return entry;
    },
    recordHandoff(id, input) {
      const entries = entriesOf(id);
      const existing = entries.find((e) => e.id === requests.get(`${id}\n${input.clientRequestId}`));
      if (existing) return view(id, existing);
      return view(id, sendMine(id, input.clientRequestId, { to: "room", text: input.text, handoff: { ...input.handoff } }));
    },
    async readConversation(id, query = {}) {
      const entries = entriesOf(id);
      let end = entries.length;
      if (query.before !== undefined) {
        end = entries.findIndex((e) => e.id === query.before);
        if (end < 0) throw new ChopinError("not-found", "That entry is not in this conversation.");
      }
      const start = Math.max(0, end - (query.limit ?? CONVERSATION_PAGE_DEFAULT_ENTRIES));
      const views = entries.map((e) => view(id, e));
      return { documentId: id, entries: views.slice(start, end), hasMore: start > 0, total: entries.length, unreadCount: views.filter((e) => e.unread).length, unreadable: 0 };
    },
    async postMessage(id, input) {
      const plan = deps.plan(id);
      if (plan.archivedAt !== null) throw new ChopinError("document-archived", "This plan is archived: its conversation takes no new messages until it is restored.");
      const entries = entriesOf(id);
      const known = requests.get(`${id}\n${input.clientRequestId}`);
      const existing = entries.find((e) => e.id === known);
      if (existing) return { entry: view(id, existing), created: false };
      // The core's rules for references, as far as this double keeps documents: another document, shared when the plan is.
      const references = [...new Set(input.references ?? [])].map((refId) => {
        const referenced = deps.plan(refId);
        if (referenced.id === plan.id) throw new ChopinError("invalid-input", "A plan's conversation cannot reference the plan itself: the Planner reads it anyway. Nothing was posted.");
        if (plan.shared && !referenced.shared) throw new ChopinError("forbidden", `“${referenced.title}” is private to this device; a shared plan's conversation can reference only documents shared with the team. Nothing was posted.`);
        return { documentId: referenced.id, title: referenced.title, revision: referenced.revision, changedSince: false };
      });
      const entry = sendMine(id, input.clientRequestId, { to: input.to, text: input.text, ...(references.length > 0 ? { references } : {}) });
      return { entry: view(id, entry), created: true };
    },
    async getConversationDraft(id) {
      deps.plan(id);
      return drafts.get(id) ?? "";
    },
    async setConversationDraft(id, text) {
      deps.plan(id);
      if (text === "") drafts.delete(id);
      else drafts.set(id, text);
    },
    async withdrawMessage(id, entryId) {
      const entries = entriesOf(id);
      const entry = entries.find((e) => e.id === entryId);
      if (!entry) throw new ChopinError("not-found", "That entry is not in this conversation.");
      if (!entry.mine || entry.to !== "planner") throw new ChopinError("forbidden", "Only a message you sent to the Planner from this device can be withdrawn.");
      if (entries.some((e) => e.author.kind === "planner" && e.turn?.id === entryId)) throw new ChopinError("forbidden", "The Planner has already taken this message up; stop its turn instead.");
      entry.withdrawn = true;
      deps.changed(id);
      return view(id, entry);
    },
    async abortPlannerTurn(id) {
      const entries = entriesOf(id);
      const answered = new Set(entries.flatMap((e) => (e.turn?.state === "answered" ? [e.turn.id] : [])));
      const running = entries.findLast((e) => e.turn?.state === "started" && !answered.has(e.turn.id));
      if (!running?.turn) throw new ChopinError("not-found", "No Planner turn is running here.");
      const existing = entries.find((e) => e.abortTurn === running.turn!.id && e.mine);
      if (existing) return view(id, existing);
      const entry = append(id, { author: deps.person(), to: "room", text: "Stopped the Planner's turn.", mine: true, delivery: "local", unread: false, abortTurn: running.turn.id });
      deps.changed(id);
      return view(id, entry);
    },
    async markConversationRead(id, entryId) {
      const at = entriesOf(id).findIndex((e) => e.id === entryId);
      if (at < 0) throw new ChopinError("not-found", "That entry is not in this conversation.");
      readThrough.set(id, Math.max(readThrough.get(id) ?? -1, at));
      deps.changed(id);
    },
  };
}
