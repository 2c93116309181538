/**
 * Each plan's conversation (issue #25): an Automerge document of its own at conversationIdOf(plan), begun from the
 * same genesis on every device, synced exactly when its plan is (the share decision asks planOf), written offline and
 * merged on reconnect.
 *
 * What must stay true:
 *  - a conversation exists only beside a plan this device can open; an archived plan's conversation takes no message;
 *  - a send is answered once it is on disk;
 *  - a send with a clientRequestId already used by the same author returns the entry it made, never a second one
 *    (the entry's key is derived from author and request id, so this holds across windows, restarts and replicas);
 *  - a conversation held in storage is opened from it, never begun again over it (begun only where none is held);
 *  - everything read back passes the conversation schema; an entry that does not is counted, not shown;
 *  - a window that was shown a message of this device's as not yet delivered hears "conversation-changed" once the
 *    relay's acknowledged heads move (the handle's "remote-heads"): an acknowledgement changes no document, so no
 *    "change" event says it, and the sync indicator's "sync-status" is published only when its count is looked at
 *    and differs, which no acknowledgement by itself causes (issue #25: such a message stayed "Not yet delivered");
 *  - in an agent chat's plan (issue #27) only the chat's person posts or asks to stop a turn; teammates read it.
 */
import { next as A } from "@automerge/automerge";
import type { DocHandle, DocumentId, Repo } from "@automerge/automerge-repo";
import type { ChopinEvents, ConversationEntryView, ConversationPage, ConversationQuery, DocumentDetail, PostMessageInput, PostMessageResult } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import { CONVERSATION_PAGE_DEFAULT_ENTRIES, MAX_PLANNER_ENTRY_TOOLS } from "../../shared/limits.js";
import { z } from "zod";
import { authorKey, conversationGenesis, conversationIdOf, entryIdOf } from "../../shared/node/conversation-identity.js";
import { changesNotHeld } from "../../shared/automerge-changes.js";
import {
  denialSchema,
  handoffSchema,
  messageTextSchema,
  turnToolSchema,
  type ConversationDocument,
  type ConversationEntry,
  type Denial,
  type Handoff,
  type PersonAuthor,
  type TurnTool,
} from "../../shared/schema/conversation.js";
import { compareMarks, type ConversationRecords } from "../store/conversation-records.js";
import { ParsedTranscript } from "./parsed-transcript.js";
import { entryTurn } from "../../shared/planner-turns.js";
import { resolveReferences } from "./message-references.js";
import type { TypedEmitter } from "../util/typed-emitter.js";

export interface ConversationServiceDeps {
  repo: Repo;
  records: ConversationRecords;
  events: TypedEmitter<ChopinEvents>;
  /** The plan a conversation belongs to must open here (not-found otherwise). */
  plans: { getDocument(id: string): Promise<DocumentDetail>; isShared(id: string): boolean };
  /** Whether storage holds anything of a document (so it is opened, not begun). */
  holds(documentId: string): boolean;
  /** The person of this app, as their messages name them. */
  author(): PersonAuthor;
  /**
   * The heads the relay holds of a document (acknowledged or sent by it), or null while this device has no relay:
   * a message sent from here is delivered once its change is among them.
   */
  relayHeld(handle: DocHandle<unknown>): readonly string[] | null;
  now?: () => number;
}

type ConversationHandle = DocHandle<ConversationDocument>;

/** A Planner entry as the owner's app writes it (a fenced write): its text, its turn and what the turn did. */
export interface PlannerEntryInput {
  text: string;
  turnId?: string;
  turn?: "started" | "answered";
  boundary?: true;
  tools?: TurnTool[];
  denial?: Denial;
  /** A card of a plan handed off by the agent's tool (issue #27), written only once that plan is stored and listed. */
  handoff?: Handoff;
  /** The turn's answer is its failure (the provider's error, no words): the window offers the asker a retry. */
  failed?: true;
  clientRequestId: string;
  ownershipGeneration: number;
  sessionGeneration: number;
}

export class ConversationService {
  readonly #deps: ConversationServiceDeps;
  readonly #now: () => number;
  /** conversation id -> plan id, for every plan this device knows of (the share decision asks it per frame). */
  readonly #planOf = new Map<string, DocumentId>();
  readonly #open = new Map<DocumentId, Promise<ConversationHandle>>();
  /** Each open conversation's entries, read once and kept up to date (parsed-transcript.ts). */
  readonly #parsed = new Map<DocumentId, ParsedTranscript>();
  /** Who hears the passing (ephemeral) messages of open conversations: never stored, never synced. */
  readonly #passing = new Set<(planId: DocumentId, senderId: string, message: unknown) => void>();
  /** Plans where a read showed a message sent from here as not yet delivered, since the last acknowledgement. */
  readonly #shownUndelivered = new Set<DocumentId>();

  constructor(deps: ConversationServiceDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  /**
   * Sends `message` to the apps that have this plan's conversation open now (through the relay for a shared plan),
   * without storing it: for what passes, such as a running turn's progress. Nothing happens for a conversation this
   * app has not opened.
   */
  async pass(planId: DocumentId, message: unknown): Promise<void> {
    const opening = this.#open.get(planId);
    if (!opening) return;
    (await opening).broadcast(message);
  }

  /** Hears the passing messages of every conversation this app has open; returns the way to stop. */
  onPassing(listener: (planId: DocumentId, senderId: string, message: unknown) => void): () => void {
    this.#passing.add(listener);
    return () => this.#passing.delete(listener);
  }

  /** Notes plans this device knows of, so their conversations' ids map back to them. */
  notePlans(planIds: Iterable<string>): void {
    for (const id of planIds) this.#planOf.set(conversationIdOf(id as DocumentId), id as DocumentId);
  }

  /** The plan whose conversation `documentId` is, or undefined when it is none this device knows of. */
  planOf(documentId: string): DocumentId | undefined {
    return this.#planOf.get(documentId);
  }

  async read(planId: DocumentId, query: ConversationQuery = {}): Promise<ConversationPage> {
    const { handle } = await this.#openFor(planId);
    const { entries, unreadable } = this.#transcript(planId, handle);
    let end = entries.length;
    if (query.before !== undefined) {
      end = entries.findIndex((entry) => entry.id === query.before);
      if (end < 0) throw new ChopinError("not-found", "That entry is not in this conversation.");
    }
    const limit = query.limit ?? CONVERSATION_PAGE_DEFAULT_ENTRIES;
    const start = Math.max(0, end - limit);
    const view = this.#viewer(planId, handle);
    const mark = this.#deps.records.readMark(planId);
    const unreadCount = entries.filter((entry) => view.unread(entry, mark)).length;
    const shown = entries.slice(start, end);
    const revisions = await this.#revisionsOf(shown);
    return { documentId: planId, entries: shown.map((entry) => view.of(entry, mark, revisions)), hasMore: start > 0, total: entries.length, unreadCount, unreadable };
  }

  /** This app's person as entries key their authors: "github:<login>" when signed in, else "device:<device id>". */
  personKey(): string {
    return authorKey(this.#deps.author());
  }

  async post(planId: DocumentId, input: PostMessageInput): Promise<PostMessageResult> {
    const { handle, plan } = await this.#openFor(planId);
    if (plan.archivedAt !== null) throw new ChopinError("document-archived", "This plan is archived: its conversation takes no new messages until it is restored.");
    this.#needChatPerson(plan);
    const author = this.#deps.author();
    const id = entryIdOf(author, input.clientRequestId);
    const seen = this.#transcript(planId, handle).entries;
    const existing = seen.find((entry) => entry.id === id);
    if (existing) return { entry: this.#viewer(planId, handle).of(existing, this.#deps.records.readMark(planId)), created: false };

    const references = input.references && input.references.length > 0 ? await resolveReferences(plan, input.references, this.#deps.plans) : [];
    const entry = this.#newEntry(seen, id, author, { to: input.to, text: input.text, clientRequestId: input.clientRequestId, ...(references.length > 0 ? { references } : {}) });
    await this.#writeOwn(planId, handle, entry);
    // Viewed after the outbox row exists: a message the relay does not hold yet shows as not yet delivered.
    return { entry: this.#viewer(planId, handle).of(entry, this.#deps.records.readMark(planId)), created: true };
  }

  /** Every readable entry, in causal order (the Planner's context is chosen from these: main/planner/turn-context.ts). */
  async entries(planId: DocumentId): Promise<ConversationEntry[]> {
    const { handle } = await this.#openFor(planId);
    return this.#transcript(planId, handle).entries;
  }

  /** Planner sessions begun in this conversation: the highest session generation an entry records (0: none yet). */
  async sessionGeneration(planId: DocumentId): Promise<number> {
    const { handle } = await this.#openFor(planId);
    return this.#transcript(planId, handle).entries.reduce((highest, entry) => Math.max(highest, entry.sessionGeneration ?? 0), 0);
  }

  /** The turns (messages to the Planner) whose answer is in the conversation. */
  async answeredTurns(planId: DocumentId): Promise<Set<string>> {
    const { handle } = await this.#openFor(planId);
    const { entries } = this.#transcript(planId, handle);
    return new Set(entries.flatMap((entry) => (entry.author.kind === "planner" && entry.turnId && entry.turn !== "started" ? [entry.turnId] : [])));
  }

  /**
   * Messages to the Planner that no Planner entry names yet (an answer, or the mark of a turn begun for it, names the
   * message as its turnId: a turn begun and never answered was interrupted and is not run again), oldest first, each
   * with whether this app's person sent it.
   */
  async waitingForPlanner(planId: DocumentId): Promise<{ entryId: string; mine: boolean; text: string }[]> {
    const { handle } = await this.#openFor(planId);
    const { entries } = this.#transcript(planId, handle);
    const answered = new Set(entries.flatMap((entry) => (entry.author.kind === "planner" && entry.turnId ? [entry.turnId] : [])));
    const me = this.#deps.author();
    return entries
      .filter((entry) => entry.to === "planner" && entry.author.kind === "person" && entry.withdrawnAt === undefined && !answered.has(entry.id))
      .map((entry) => ({ entryId: entry.id, mine: entry.author.kind === "person" && entry.author.device === me.device, text: entry.text }));
  }

  /**
   * A Planner entry as a change, not written here: the Planner's owner publishes it as a fenced write
   * (main/planner/fenced-writer.ts), so this replica gets it only once the keeper accepted it.
   */
  async plannerEntry(
    planId: DocumentId,
    input: PlannerEntryInput,
  ): Promise<{ documentId: DocumentId; entryId: string; change: (doc: ConversationDocument) => void }> {
    const { handle } = await this.#openFor(planId);
    const author = { kind: "planner" } as const;
    const id = entryIdOf(author, input.clientRequestId);
    const seen = this.#transcript(planId, handle).entries;
    const entry = this.#newEntry(seen, id, author, {
      to: "room",
      text: messageTextSchema.parse(input.text),
      clientRequestId: input.clientRequestId,
      ...(input.turnId !== undefined ? { turnId: input.turnId } : {}),
      ...(input.turn !== undefined ? { turn: input.turn } : {}),
      ...(input.boundary ? { boundary: true as const } : {}),
      ...(input.tools && input.tools.length > 0 ? { tools: z.array(turnToolSchema).parse(input.tools.slice(-MAX_PLANNER_ENTRY_TOOLS)) } : {}),
      ...(input.denial ? { denial: denialSchema.parse(input.denial) } : {}),
      ...(input.handoff ? { handoff: handoffSchema.parse(input.handoff) } : {}),
      ...(input.failed ? { failed: true as const } : {}),
      sessionGeneration: input.sessionGeneration,
      ownershipGeneration: input.ownershipGeneration,
    });
    return {
      documentId: handle.documentId,
      entryId: id,
      change: (doc) => {
        if (doc.entries[id] === undefined) doc.entries[id] = stored(entry);
      },
    };
  }

  /**
   * The person's card of a plan they handed off from their agent chat (issue #27), to the room, written once per
   * clientRequestId and answered once on disk; only the chat's person writes one. The plan was made before this.
   */
  async recordHandoff(planId: DocumentId, input: { text: string; handoff: Handoff; clientRequestId: string }): Promise<ConversationEntryView> {
    const { handle, plan } = await this.#openFor(planId);
    if (plan.archivedAt !== null) throw new ChopinError("document-archived", "This plan is archived: its conversation takes no new entries until it is restored.");
    this.#needChatPerson(plan);
    const author = this.#deps.author();
    const id = entryIdOf(author, input.clientRequestId);
    const seen = this.#transcript(planId, handle).entries;
    if (!seen.some((entry) => entry.id === id)) {
      const entry = this.#newEntry(seen, id, author, {
        to: "room",
        text: messageTextSchema.parse(input.text),
        clientRequestId: input.clientRequestId,
        handoff: handoffSchema.parse(input.handoff),
      });
      await this.#writeOwn(planId, handle, entry);
    }
    const written = this.#transcript(planId, handle).entries.find((entry) => entry.id === id)!;
    return this.#viewer(planId, handle).of(written, this.#deps.records.readMark(planId));
  }

  /** A system entry to the room (a reset of Planner ownership), written once per clientRequestId. */
  async recordSystem(planId: DocumentId, text: string, options: { clientRequestId: string; sessionGeneration: number; ownershipGeneration: number }): Promise<void> {
    const { handle } = await this.#openFor(planId);
    const author = { kind: "system" } as const;
    const id = entryIdOf(author, options.clientRequestId);
    const seen = this.#transcript(planId, handle).entries;
    if (seen.some((entry) => entry.id === id)) return;
    const { clientRequestId, sessionGeneration, ownershipGeneration } = options;
    const entry = this.#newEntry(seen, id, author, { to: "room", text, clientRequestId, sessionGeneration, ownershipGeneration });
    handle.change((doc) => {
      doc.entries[id] = stored(entry);
    });
    await this.#deps.repo.flush([handle.documentId]);
  }

  async draft(planId: DocumentId): Promise<string> {
    await this.#deps.plans.getDocument(planId);
    return this.#deps.records.draft(planId);
  }

  async setDraft(planId: DocumentId, text: string): Promise<void> {
    await this.#deps.plans.getDocument(planId);
    this.#deps.records.setDraft(planId, text, this.#now());
  }

  async markRead(planId: DocumentId, entryId: string): Promise<void> {
    const { handle } = await this.#openFor(planId);
    const entry = this.#transcript(planId, handle).entries.find((e) => e.id === entryId);
    if (!entry) throw new ChopinError("not-found", "That entry is not in this conversation.");
    this.#deps.records.markRead(planId, { seq: entry.seq, at: entry.at, entryId: entry.id });
    this.#deps.events.emit("conversation-changed", { documentId: planId });
  }

  /** Withdraws this person's message to the Planner while no turn has taken it up (then nothing runs it). */
  async withdraw(planId: DocumentId, entryId: string): Promise<ConversationEntryView> {
    const { handle } = await this.#openFor(planId);
    const entries = this.#transcript(planId, handle).entries;
    const entry = entries.find((e) => e.id === entryId);
    if (!entry) throw new ChopinError("not-found", "That entry is not in this conversation.");
    const me = this.#deps.author();
    if (entry.author.kind !== "person" || entry.author.device !== me.device || entry.to !== "planner") {
      throw new ChopinError("forbidden", "Only a message you sent to the Planner from this device can be withdrawn.");
    }
    if (entries.some((e) => e.author.kind === "planner" && e.turnId === entryId)) {
      throw new ChopinError("forbidden", "The Planner has already taken this message up; stop its turn instead.");
    }
    if (entry.withdrawnAt === undefined) {
      handle.change((doc) => {
        (doc.entries[entryId] as { withdrawnAt?: number }).withdrawnAt = this.#now();
      });
      await this.#deps.repo.flush([handle.documentId]);
    }
    const updated = this.#transcript(planId, handle).entries.find((e) => e.id === entryId)!;
    return this.#viewer(planId, handle).of(updated, this.#deps.records.readMark(planId));
  }

  /**
   * Asks the app running the Planner to stop the turn now running here (the one begun and not answered): an entry of
   * this person's naming the turn, so the conversation records who stopped it. Refused when no turn is running.
   */
  /** `agentName`: whose turn it is in an agent chat (its stop record names it); the Planner's otherwise. */
  async requestAbort(planId: DocumentId, agentName?: string): Promise<ConversationEntryView> {
    const { handle, plan } = await this.#openFor(planId);
    this.#needChatPerson(plan);
    const entries = this.#transcript(planId, handle).entries;
    const answered = new Set(entries.flatMap((e) => (e.author.kind === "planner" && e.turnId && e.turn !== "started" ? [e.turnId] : [])));
    const running = entries.findLast((e) => e.author.kind === "planner" && e.turn === "started" && e.turnId && !answered.has(e.turnId));
    if (!running?.turnId) throw new ChopinError("not-found", "No Planner turn is running here.");
    const author = this.#deps.author();
    const clientRequestId = `abort:${running.turnId}`;
    const id = entryIdOf(author, clientRequestId);
    if (!entries.some((e) => e.id === id)) {
      const entry: ConversationEntry = { id, seq: (entries.at(-1)?.seq ?? 0) + 1, author, to: "room", text: `Stopped ${agentName === undefined ? "the Planner" : agentName}'s turn.`, at: this.#now(), clientRequestId, abortTurn: running.turnId };
      handle.change((doc) => {
        doc.entries[id] = stored(entry);
      });
      await this.#deps.repo.flush([handle.documentId]);
    }
    const written = this.#transcript(planId, handle).entries.find((e) => e.id === id)!;
    return this.#viewer(planId, handle).of(written, this.#deps.records.readMark(planId));
  }

  /** Who asked to stop the turn for message `turnId`, if anyone did. */
  async abortRequestedBy(planId: DocumentId, turnId: string): Promise<string | null> {
    const { handle } = await this.#openFor(planId);
    const request = this.#transcript(planId, handle).entries.find((e) => e.abortTurn === turnId);
    return request ? (request.author.kind === "person" ? request.author.name : "someone") : null;
  }

  /** The relay may have taken messages sent from here: open conversations with any such message are told to look. */
  deliveriesMayHaveChanged(): void {
    for (const planId of this.#open.keys()) {
      if (this.#deps.records.sentChanges(planId).size > 0) this.#deps.events.emit("conversation-changed", { documentId: planId });
    }
  }

  /** The plan left this device: its conversation goes with it, and this device's records of it. */
  forget(planId: DocumentId): void {
    const conversationId = conversationIdOf(planId);
    this.#open.delete(planId);
    this.#parsed.delete(planId);
    this.#shownUndelivered.delete(planId);
    this.#deps.records.forget(planId);
    if (this.#deps.repo.handles[conversationId]) this.#deps.repo.delete(conversationId);
  }

  /** An agent chat is its person's: anyone else reads it and writes nothing in it. */
  #needChatPerson(plan: DocumentDetail): void {
    if (plan.agentChat && plan.agentChat.person !== this.personKey()) {
      throw new ChopinError("forbidden", "This is a teammate's chat with an agent: you can read it, and only they write in it. Nothing was sent.");
    }
  }

  /** A new entry `id` of `author`, after every entry `seen` (its seq) and stamped now; `fields` say the rest. */
  #newEntry(
    seen: readonly ConversationEntry[],
    id: string,
    author: ConversationEntry["author"],
    fields: Omit<ConversationEntry, "id" | "seq" | "author" | "at">,
  ): ConversationEntry {
    return { id, seq: nextSeq(seen), author, at: this.#now(), ...fields };
  }

  /** This person's new `entry`, written: noted for delivery, on disk before the answer, read by its sender. */
  async #writeOwn(planId: DocumentId, handle: ConversationHandle, entry: ConversationEntry): Promise<void> {
    handle.change((doc) => {
      doc.entries[entry.id] = stored(entry);
    });
    const [changeHash] = A.getHeads(handle.doc());
    if (changeHash) this.#deps.records.noteSent(planId, entry.id, changeHash, this.#now());
    // Answered once on disk: a sent message survives a crash right after the answer.
    await this.#deps.repo.flush([handle.documentId]);
    // One's own message is read by sending it.
    this.#deps.records.markRead(planId, { seq: entry.seq, at: entry.at, entryId: entry.id });
  }

  #transcript(planId: DocumentId, handle: ConversationHandle): { entries: ConversationEntry[]; unreadable: number } {
    let parsed = this.#parsed.get(planId);
    if (!parsed) this.#parsed.set(planId, (parsed = new ParsedTranscript()));
    return parsed.read(handle.doc());
  }

  async #openFor(planId: DocumentId): Promise<{ handle: ConversationHandle; plan: DocumentDetail }> {
    const plan = await this.#deps.plans.getDocument(planId);
    let opening = this.#open.get(planId);
    if (!opening) {
      opening = this.#begin(planId);
      this.#open.set(planId, opening);
      opening.catch(() => this.#open.delete(planId));
    }
    return { handle: await opening, plan };
  }

  async #begin(planId: DocumentId): Promise<ConversationHandle> {
    const conversationId = conversationIdOf(planId);
    this.#planOf.set(conversationId, planId);
    const { repo } = this.#deps;
    const known = repo.handles[conversationId] as ConversationHandle | undefined;
    let handle: ConversationHandle;
    if (known?.isReady()) handle = known;
    else if (this.#deps.holds(conversationId)) handle = await repo.find<ConversationDocument>(conversationId);
    else handle = repo.import<ConversationDocument>(conversationGenesis(planId), { docId: conversationId });
    await handle.whenReady();
    handle.on("change", () => this.#deps.events.emit("conversation-changed", { documentId: planId }));
    handle.on("ephemeral-message", ({ senderId, message }) => {
      for (const listener of this.#passing) listener(planId, senderId, message);
    });
    handle.on("remote-heads", () => this.#acknowledged(planId));
    return handle;
  }

  /**
   * A peer's acknowledged heads of the conversation moved (the relay's, which relayHeld reads): windows that show a
   * message of this device's as not yet delivered read again. Only those, so an acknowledgement costs no read
   * otherwise; a read that still finds one undelivered marks the plan again.
   */
  #acknowledged(planId: DocumentId): void {
    if (!this.#shownUndelivered.delete(planId)) return;
    // Emitted from inside the synchronizer's update of the handle: told once it has taken the whole message in.
    queueMicrotask(() => this.#deps.events.emit("conversation-changed", { documentId: planId }));
  }

  /** The revisions now of the documents `entries` reference (those on this device), to say which changed since. */
  async #revisionsOf(entries: readonly ConversationEntry[]): Promise<Map<string, string>> {
    const ids = new Set(entries.flatMap((entry) => (entry.references ?? []).map((reference) => reference.documentId)));
    const revisions = new Map<string, string>();
    for (const id of ids) {
      const detail = await this.#deps.plans.getDocument(id).catch(() => null);
      if (detail) revisions.set(id, detail.revision);
    }
    return revisions;
  }

  /** How entries look to this person: theirs or not, delivered or not, read or not. */
  #viewer(planId: DocumentId, handle: ConversationHandle) {
    const device = this.#deps.author().device;
    const sent = this.#deps.records.sentChanges(planId);
    const shared = this.#deps.plans.isShared(planId);
    const shownUndelivered = this.#shownUndelivered;
    let notHeld: Set<string> | null = null;
    const undelivered = (hash: string) => {
      if (notHeld === null) {
        const held = this.#deps.relayHeld(handle as DocHandle<unknown>);
        notHeld = held === null ? new Set(sent.values()) : changesNotHeld(handle.doc(), held);
      }
      return notHeld.has(hash);
    };
    const mine = (entry: ConversationEntry) => entry.author.kind === "person" && entry.author.device === device;
    const unread = (entry: ConversationEntry, mark: ReturnType<ConversationRecords["readMark"]>) =>
      !mine(entry) && (mark === null || compareMarks({ seq: entry.seq, at: entry.at, entryId: entry.id }, mark) > 0);
    return {
      unread,
      of(entry: ConversationEntry, mark: ReturnType<ConversationRecords["readMark"]>, revisions: ReadonlyMap<string, string> = new Map()): ConversationEntryView {
        const hash = sent.get(entry.id);
        const delivery = !shared ? "local" : hash !== undefined && undelivered(hash) ? "pending" : "delivered";
        if (delivery === "pending") shownUndelivered.add(planId);
        const turn = entryTurn(entry) ? { turn: entryTurn(entry)! } : {};
        const marks = {
          ...(entry.boundary ? { boundary: true as const } : {}),
          ...(entry.withdrawnAt !== undefined ? { withdrawn: true as const } : {}),
          ...(entry.abortTurn !== undefined ? { abortTurn: entry.abortTurn } : {}),
          ...(entry.references
            ? { references: entry.references.map((reference) => ({ ...reference, changedSince: revisions.has(reference.documentId) && revisions.get(reference.documentId) !== reference.revision })) }
            : {}),
          ...(entry.tools ? { tools: entry.tools } : {}),
          ...(entry.denial ? { denial: entry.denial } : {}),
          ...(entry.handoff ? { handoff: { documentId: entry.handoff.documentId as DocumentId, title: entry.handoff.title } } : {}),
          ...(entry.failed && entry.author.kind === "planner" ? { failed: true as const } : {}),
          ...(entry.author.kind !== "person" && entry.sessionGeneration !== undefined ? { sessionGeneration: entry.sessionGeneration } : {}),
        };
        return { id: entry.id, seq: entry.seq, author: entry.author, to: entry.to, text: entry.text, at: entry.at, mine: mine(entry), delivery, unread: unread(entry, mark), ...turn, ...marks };
      },
    };
  }
}

/** An entry as stored: its free text and names as scalar strings (no per-character history for sent words). */
function stored(entry: ConversationEntry): unknown {
  const raw = (value: string) => new A.RawString(value);
  const author = entry.author.kind === "person" ? { ...entry.author, name: raw(entry.author.name), device: raw(entry.author.device), ...(entry.author.login ? { login: raw(entry.author.login) } : {}) } : entry.author;
  const references = entry.references?.map((reference) => ({ documentId: raw(reference.documentId), title: raw(reference.title), revision: raw(reference.revision) }));
  const tools = entry.tools?.map((tool) => ({ ...tool, name: raw(tool.name), ...(tool.note !== undefined ? { note: raw(tool.note) } : {}) }));
  const denial = entry.denial && { tool: raw(entry.denial.tool), check: raw(entry.denial.check), reason: raw(entry.denial.reason), turnId: raw(entry.denial.turnId) };
  const handoff = entry.handoff && { documentId: raw(entry.handoff.documentId), title: raw(entry.handoff.title) };
  return { ...entry, author, text: raw(entry.text), clientRequestId: raw(entry.clientRequestId), ...(references ? { references } : {}), ...(tools ? { tools } : {}), ...(denial ? { denial } : {}), ...(handoff ? { handoff } : {}) };
}

/** The seq a new entry takes: one past the last of the transcript seen (entries are in causal order). */
function nextSeq(seen: readonly ConversationEntry[]): number {
  return (seen.at(-1)?.seq ?? 0) + 1;
}
