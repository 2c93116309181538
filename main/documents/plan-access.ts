/**
 * The one way the document modules reach a plan (the service itself, sharing, saving, import, repository binding,
 * version history), so the same rules hold for all of them:
 * - only ids this device knows are looked up: automerge-repo keeps an unavailable handle in its cache and then fails
 *   every later flush()/shutdown(), so a guessed id must never reach repo.find;
 * - archived plans refuse writes;
 * - every change names its author (authors.ts), carries its time, and refreshes the plan's index entry before the
 *   caller returns (a caller that lists right after writing must see its own write).
 */
import { next as A } from "@automerge/automerge";
import { encodeHeads, type DocumentId, type Repo } from "@automerge/automerge-repo";
import type { DocumentDetail, DocumentSummary } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import { stampAuthor } from "./authors.js";
import { agentChangeMessage, type AgentAuthor } from "./change-messages.js";
import type { CoalescedIds, RepoWatch } from "./change-watcher.js";
import { parseDocumentId } from "./document-id.js";
import { refreshIndexEntry } from "./index-upkeep.js";
import type { Indexes } from "./indexes.js";
import { readPlan, toDetail, toSummary, type PlanHandle } from "./plan-reader.js";
import type { SnapshotWriter } from "./snapshot-writer.js";
import { entryOf, hasEntry } from "./workspace-index.js";
import { TEAM_PLAN_ARRIVAL_RETRY_MS, TEAM_PLAN_ARRIVAL_WAIT_MS } from "./bounds.js";

export interface LoadedPlan {
  handle: PlanHandle;
  plan: PlanDocument;
}

export interface PlanAccessOptions {
  repo: Repo;
  indexes: Indexes;
  snapshots: SnapshotWriter;
  /** Collects the ids reported in the next "documents-changed" event. */
  changed: CoalescedIds;
  displayName: () => string;
  now: () => number;
  /** Whether this device holds the plan (a ready handle, or stored chunks). Default: a ready handle. */
  held?: (documentId: string) => boolean;
  /** Whether the relay link is connected now (a teammate's plan can arrive). Default: no. */
  teamReachable?: () => boolean;
  /**
   * This app's person as agent chats key them ("github:<login>", else "device:<id>"): a chat plan whose mark names
   * anyone else is theirs, read here and never changed (issue #27). Default: nobody's chat is refused.
   */
  chatPerson?: () => string;
  /** TEAM_PLAN_ARRIVAL_WAIT_MS and TEAM_PLAN_ARRIVAL_RETRY_MS, unless a test says otherwise. */
  arrivalWaitMs?: number;
  arrivalRetryMs?: number;
}

export class PlanAccess {
  readonly repo: Repo;
  readonly indexes: Indexes;
  readonly snapshots: SnapshotWriter;
  readonly changed: CoalescedIds;
  readonly now: () => number;
  readonly #displayName: () => string;
  readonly #held: (documentId: string) => boolean;
  readonly #teamReachable: () => boolean;
  readonly #chatPerson: (() => string) | null;
  readonly #arrival: { waitMs: number; retryMs: number };
  /** Set once the service starts watching; handles found or created before that are attached by its first sweep. */
  watch: RepoWatch | null = null;
  /**
   * Plans found for a person, an agent or the API this session: team prefetch lets go of the plans it brought in
   * (plan-release.ts) but never of one someone uses. Only ids with a loaded handle (or just deleted) are here.
   */
  readonly #used = new Set<string>();
  /**
   * Plans whose stored copy failed to load this session, with the refusal they got. automerge-repo keeps the failed
   * handle in its cache, stuck loading: a second find() waited on it for a minute and then called the plan "not
   * found" (storage audit). So a damaged plan is refused at once, with the same words, until the next start tries
   * again; its handle never becomes ready, so nothing is ever saved over its stored bytes.
   */
  readonly #damaged = new Map<string, ChopinError>();

  constructor(options: PlanAccessOptions) {
    this.repo = options.repo;
    this.indexes = options.indexes;
    this.snapshots = options.snapshots;
    this.changed = options.changed;
    this.now = options.now;
    this.#displayName = options.displayName;
    this.#held = options.held ?? ((id) => this.repo.handles[id as DocumentId]?.isReady() === true);
    this.#teamReachable = options.teamReachable ?? (() => false);
    this.#chatPerson = options.chatPerson ?? null;
    this.#arrival = { waitMs: options.arrivalWaitMs ?? TEAM_PLAN_ARRIVAL_WAIT_MS, retryMs: options.arrivalRetryMs ?? TEAM_PLAN_ARRIVAL_RETRY_MS };
  }

  /**
   * A plan the team's list names and this device shares by its record, but does not hold yet: its content is on its
   * way (a teammate made it a moment ago, or team prefetch has not brought it yet).
   */
  arriving(documentId: string): boolean {
    return this.indexes.isShared(documentId) && this.indexes.teamIds().includes(documentId) && !this.#held(documentId);
  }

  parseId(id: unknown): DocumentId {
    return parseDocumentId(id);
  }

  isShared(documentId: string): boolean {
    return this.indexes.isShared(documentId);
  }

  /** Attaches a handle to the change watcher (without reporting it). */
  track(handle: { documentId: DocumentId }): void {
    this.watch?.track(handle as never);
  }

  /** `background`: team prefetch's own fetch, which does not count as a use (plan-release.ts). */
  async find(id: unknown, { background = false }: { background?: boolean } = {}): Promise<PlanHandle> {
    const documentId = this.parseId(id);
    if (this.indexes.isIndex(documentId)) throw new ChopinError("not-found", "That id is not a plan document.");
    const cached = this.repo.handles[documentId];
    if (!(cached?.isReady() || this.indexes.knows(documentId))) {
      throw new ChopinError("not-found", "No document with that id is on this device.");
    }
    this.refuseIfDamaged(documentId);
    const arriving = this.arriving(documentId);
    let handle: PlanHandle;
    try {
      handle = await this.repo.find<PlanDocument>(documentId);
    } catch (error) {
      const failure = findFailure(error);
      if (failure.code === "storage-failure") this.#damaged.set(documentId, failure);
      if (failure.code !== "not-found" || !arriving) throw failure;
      handle = await this.#awaitArrival(documentId);
    }
    if (!background) this.#used.add(documentId);
    this.track(handle);
    this.snapshots.ensure(handle);
    return handle;
  }

  /**
   * Waits, up to the bound, for a teammate's plan the relay did not have yet: each try drops the unavailable handle
   * and asks again (the relay answers "unavailable" until the plan reaches it, and forgets who asked). Offline it is
   * refused at once, saying why.
   */
  async #awaitArrival(documentId: DocumentId): Promise<PlanHandle> {
    const deadline = Date.now() + this.#arrival.waitMs;
    // An unavailable handle left in the Repo's cache fails every later flush() and shutdown(): never left behind.
    const dropUnavailable = () => {
      const stale = this.repo.handles[documentId];
      if (stale && !stale.isReady()) this.repo.delete(documentId);
    };
    for (;;) {
      if (!this.#teamReachable()) {
        dropUnavailable();
        throw new ChopinError(
          "relay-unavailable",
          "This teammate's plan has not reached this device yet, and the team relay is not connected: it opens once the relay is back.",
          { documentId, arriving: true },
        );
      }
      if (Date.now() >= deadline) {
        dropUnavailable();
        throw new ChopinError("not-found", "This teammate's plan has not reached the relay yet; try again in a moment.", { documentId, arriving: true });
      }
      dropUnavailable();
      await new Promise((resolve) => setTimeout(resolve, this.#arrival.retryMs));
      try {
        return await this.repo.find<PlanDocument>(documentId);
      } catch (error) {
        const failure = findFailure(error);
        if (failure.code !== "not-found") throw failure;
      }
    }
  }

  /** Throws the plan's 'storage-failure' when its stored copy already failed to load this session. */
  refuseIfDamaged(documentId: string): void {
    const damaged = this.#damaged.get(documentId);
    if (damaged) throw damaged;
  }

  /** Whether a person, an agent or the API found the plan this session (it then stays loaded). */
  usedHere(documentId: string): boolean {
    return this.#used.has(documentId);
  }

  /** Whether the plan's stored copy failed to load this session (damaged-removal.ts may then remove it unarchived). */
  isDamaged(documentId: string): boolean {
    return this.#damaged.has(documentId);
  }

  /** The plan left this device: nothing keeps its id (a damaged mark included: a copy fetched again may be good). */
  forgetUse(documentId: string): void {
    this.#used.delete(documentId);
    this.#damaged.delete(documentId);
  }

  async load(id: unknown): Promise<LoadedPlan> {
    const handle = await this.find(id);
    return { handle, plan: readPlan(handle) };
  }

  async loadWritable(id: unknown): Promise<LoadedPlan> {
    const loaded = await this.load(id);
    this.needOwnChat(loaded.plan);
    if (loaded.plan.archivedAt !== null) {
      throw new ChopinError("document-archived", "This document is archived; restore it to edit.");
    }
    return loaded;
  }

  /**
   * Lists a plan just made on this device (created or imported). When the indexes refuse it (a share whose record the
   * database cannot take: 'storage-failure', nothing changed) the plan is let go again, so the caller's refusal is
   * true: no plan is left in memory that no list names and no answer gave an id for. A save the Repo queued for it
   * meets the same full disk.
   */
  enterNew(handle: PlanHandle, plan: PlanDocument, shared: boolean): void {
    try {
      this.indexes.add(handle.documentId, entryOf(plan), shared, this.now());
    } catch (error) {
      this.repo.delete(handle.documentId);
      throw error;
    }
  }

  /**
   * Lists a plan this device holds but does not list yet (an agent chat's plan begun from its genesis, a handed-off
   * plan) like a created one: shared when `shared`, snapshotted, announced. True when it was listed now; refused whole
   * ('storage-failure') it is let go, as enterNew says.
   */
  listIfUnlisted(handle: PlanHandle, plan: PlanDocument, shared: boolean): boolean {
    if (hasEntry(this.indexes.local, handle.documentId)) return false;
    this.enterNew(handle, plan, shared);
    this.snapshots.changed(handle);
    this.changed.add([handle.documentId]);
    return true;
  }

  /** Whether `plan` is an agent chat of someone other than this app's person (theirs to change, ours to read). */
  isOthersChat(plan: Pick<PlanDocument, "agentChat">): boolean {
    return plan.agentChat !== undefined && this.#chatPerson !== null && plan.agentChat.person !== this.#chatPerson();
  }

  /** Refuses ('forbidden') any change of a teammate's agent chat plan, as ConversationService refuses posts in it. */
  needOwnChat(plan: Pick<PlanDocument, "agentChat">): void {
    if (this.isOthersChat(plan)) {
      throw new ChopinError("forbidden", "This is a teammate's chat with an agent: you can read its plan, and only they change it. Nothing was changed.");
    }
  }

  /** `by` names the agent asking (none: the person here); `message` overrides the change's message. */
  change(handle: PlanHandle, fn: (doc: PlanDocument) => void, by?: AgentAuthor, message?: string): void {
    // Every change of a plan on this device's behalf comes through here or changeAt (the Planner's fenced writes
    // excepted: they run only in the chat person's app).
    this.needOwnChat(handle.doc());
    const now = this.now();
    const tag = message ?? (by ? agentChangeMessage(by) : undefined);
    handle.change(
      (doc) => {
        fn(doc);
        stampAuthor(doc, this.#displayName());
      },
      { time: Math.floor(now / 1000), ...(tag === undefined ? {} : { message: tag }) },
    );
    // The watcher refreshes too, but a caller that lists right after writing must see its own write.
    refreshIndexEntry(this.indexes, handle);
  }

  /**
   * A new plan's first change as saved bytes, made as `change` makes one (its author named, its time, the agent's
   * message), for a plan that must begin at a chosen id in one piece (handoff-plan.ts): stored whole or not at all.
   */
  firstChange(fn: (doc: PlanDocument) => void, by?: AgentAuthor): Uint8Array {
    const tag = by ? agentChangeMessage(by) : undefined;
    const doc = A.change(A.init<PlanDocument>(), { time: Math.floor(this.now() / 1000), ...(tag === undefined ? {} : { message: tag }) }, (d) => {
      fn(d);
      stampAuthor(d, this.#displayName());
    });
    return A.save(doc);
  }

  /**
   * `change` as of `heads` (hex), merged with everything after them: a write decided on what the person saw then
   * (a restore) does not undo what others wrote since.
   */
  changeAt(handle: PlanHandle, heads: string[], fn: (doc: PlanDocument) => void, message?: string): void {
    this.needOwnChat(handle.doc());
    const now = this.now();
    handle.changeAt(
      encodeHeads(heads),
      (doc) => {
        fn(doc);
        stampAuthor(doc, this.#displayName());
      },
      { time: Math.floor(now / 1000), ...(message === undefined ? {} : { message }) },
    );
    refreshIndexEntry(this.indexes, handle);
  }

  /** The handle's current detail; `plan` when the caller already read it. */
  detailOf(handle: PlanHandle, plan: PlanDocument = readPlan(handle)): DocumentDetail {
    const detail = toDetail(handle, plan, this.isShared(handle.documentId));
    const leftTeamAt = this.indexes.leftTeamAt(handle.documentId);
    return {
      ...detail,
      ...(leftTeamAt === null ? {} : { leftTeamAt }),
      ...(this.indexes.listedByTeammate(handle.documentId) ? { listedByTeammate: true as const } : {}),
      ...(this.isOthersChat(plan) ? { teammatesChat: true as const } : {}),
    };
  }

  summaryOf(handle: PlanHandle): DocumentSummary {
    return toSummary(handle.documentId, readPlan(handle), this.isShared(handle.documentId));
  }
}

/**
 * Why a listed document did not open. automerge-repo rejects a document no storage or peer holds as "unavailable";
 * anything else is this device's stored copy failing to load (a damaged chunk, a read error), which is not the same
 * news: the copy is still in storage, untouched, and "not found" would say it is gone. details.damaged tells it from
 * the 'storage-failure' of a write a full disk refused: only a damaged plan is offered for removal (NoticeBanner).
 */
function findFailure(error: unknown): ChopinError {
  const cause = error instanceof Error ? error.message : String(error);
  if (/\bunavailable\b/.test(cause)) return new ChopinError("not-found", "No document with that id is available on this device.");
  return new ChopinError(
    "storage-failure",
    "This device's stored copy of that document could not be read; it may be damaged. It stays in storage as it is.",
    { cause, damaged: true },
  );
}
