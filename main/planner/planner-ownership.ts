/**
 * Who runs the Planner in each plan, as this app sees and acts on it (issue #25). A shared plan's lease is the relay's
 * (a LeaseClient over the relay link), a private plan's this device's (the same LeaseClient over LocalLeaseKeeper): the
 * same claim, renewal, expiry and generation either way.
 *
 * - A message to the Planner invokes it: an eligible app claims the plan when nobody runs the Planner there; otherwise
 *   the message waits for the owner.
 * - When a lease ends while messages to the Planner wait, the app whose person sent the earliest of them claims at once,
 *   any other app with a waiting message after PLANNER_WAITING_CLAIM_STAGGER_MS, so nobody has to send again.
 * - Sign-out, credential expiry and quit release what this app holds; a new run releases its earlier run's leases.
 * - A reset by any editor ends the owner's lease and is recorded in the conversation, naming who reset it.
 *
 * What must stay true: `ownedHere` and `running-here` come only from LeaseClient.owns (a granted, unexpired lease by
 * this app's own clock); a shared plan's ownership is never decided here while the relay cannot be asked ("unknown").
 */
import type { DocumentId } from "@automerge/automerge-repo";
import type { ChopinEvents, DocumentDetail, PlannerState } from "../../shared/api.js";
import { ChopinError, toErrorShape, type ErrorShape } from "../../shared/errors.js";
import { deviceOfWirePeer, nameOfRelayHandle } from "../../shared/relay-user-name.js";
import type { TypedEmitter } from "../util/typed-emitter.js";
import { PLANNER_WAITING_CLAIM_STAGGER_MS } from "../util/limits.js";
import type { PlannerEligibility } from "./eligibility.js";
import type { KnownLease, LeaseClient } from "./lease-client.js";

/** What the ownership service needs of a plan's conversation. */
export interface OwnershipConversations {
  sessionGeneration(planId: DocumentId): Promise<number>;
  /** Messages to the Planner it has not answered, oldest first, by whether this app's person sent them. */
  waitingForPlanner(planId: DocumentId): Promise<{ mine: boolean }[]>;
  /** A system entry (a reset), beginning session generation `sessionGeneration`. */
  recordSystem(planId: DocumentId, text: string, options: { clientRequestId: string; sessionGeneration: number; ownershipGeneration: number }): Promise<void>;
}

export interface PlannerOwnershipDeps {
  relay: LeaseClient;
  local: LeaseClient;
  plans: { getDocument(id: string): Promise<DocumentDetail>; isShared(id: string): boolean };
  /** The relay answers lease frames now. */
  relayReachable(): boolean;
  eligibility: PlannerEligibility;
  /** The Planner is turned off on this app (Settings, or AGENT=off): windows say so instead of offering it. */
  offHere(): boolean;
  conversations: OwnershipConversations;
  /** The name this app's person goes by, for the record of a reset. */
  personName(): string;
  /** This app's person as an agent chat names its person ("github:<login>" or "device:<id>"). */
  personKey?(): string;
  events: TypedEmitter<ChopinEvents>;
  waitingClaimStaggerMs?: number;
}

export class PlannerOwnership {
  readonly #deps: PlannerOwnershipDeps;
  /** Channels followed at their keeper (pushes arrive for these), by keeper. */
  readonly #watched = new Map<DocumentId, LeaseClient>();
  /** Why this app could not take the Planner in a channel at its last try; cleared by a later success. */
  readonly #refusals = new Map<DocumentId, ErrorShape>();
  readonly #staggered = new Map<DocumentId, NodeJS.Timeout>();
  readonly #stops: (() => void)[] = [];
  #closed = false;

  constructor(deps: PlannerOwnershipDeps) {
    this.#deps = deps;
    for (const client of [deps.relay, deps.local]) {
      this.#stops.push(
        client.events.on("lease", (lease) => this.#leaseChanged(client, lease)),
        client.events.on("ownership", ({ channelId }) => this.#announce(channelId as DocumentId)),
      );
    }
  }

  /** The Planner's state in a plan; follows the plan's lease from now on, so changes are announced. */
  async state(planId: DocumentId): Promise<PlannerState> {
    await this.#deps.plans.getDocument(planId);
    await this.#follow(planId);
    return this.#view(planId);
  }

  /**
   * The Planner was asked for in this plan (a message to it was sent from here): claims the plan when nobody runs the
   * Planner there and this app may; otherwise the message waits for the owner. Never throws: a refusal is kept and shown.
   */
  async invoke(planId: DocumentId): Promise<PlannerState> {
    await this.#deps.plans.getDocument(planId);
    const client = await this.#follow(planId);
    const known = client.known(planId);
    if (!this.#closed && client.owns(planId) === null && (known === undefined || known.owner === null)) {
      const refusal = await this.#mayNotRun(planId);
      if (refusal) this.#refusals.set(planId, refusal);
      else {
        try {
          await client.claim(planId);
          this.#refusals.delete(planId);
        } catch (error) {
          this.#refusals.set(planId, toErrorShape(error));
        }
      }
    }
    const view = await this.#view(planId);
    this.#deps.events.emit("planner-changed", view);
    return view;
  }

  /**
   * Why a message to the Planner could not be run now, or null when someone runs it or this app may take it: for
   * callers that must refuse rather than let a message wait for nobody (MCP invoke_planner).
   */
  async whyNobodyRuns(planId: DocumentId): Promise<ErrorShape | null> {
    const view = await this.state(planId);
    return view.owner !== null ? null : this.#mayNotRun(planId);
  }

  /** Why this app may not take the Planner in this plan now (eligibility, an unreachable relay), or null. */
  async #mayNotRun(planId: DocumentId): Promise<ErrorShape | null> {
    const plan = await this.#deps.plans.getDocument(planId);
    // An agent chat runs only on its person's apps (issue #27): a teammate who reads it never runs it.
    if (plan.agentChat && plan.agentChat.person !== this.#deps.personKey?.()) {
      return toErrorShape(new ChopinError("forbidden", "This is a teammate's chat with an agent: only their own apps run it."));
    }
    const refusal: unknown = (await this.#deps.eligibility(plan.repository).catch((error: unknown) => error)) ?? this.#unreachable(planId);
    return refusal ? toErrorShape(refusal) : null;
  }

  /** An editor's reset: the owner's lease ends now, and the conversation records who reset it. */
  async reset(planId: DocumentId): Promise<PlannerState> {
    await this.#deps.plans.getDocument(planId);
    const unreachable = this.#unreachable(planId);
    if (unreachable) throw unreachable;
    const client = await this.#follow(planId);
    const before = await client.watch(planId);
    await client.reset(planId);
    if (before.owner !== null) {
      const sessionGeneration = (await this.#deps.conversations.sessionGeneration(planId)) + 1;
      const who = this.#shown(client, before.owner)!.user;
      await this.#deps.conversations.recordSystem(planId, `${this.#deps.personName()} reset Planner ownership: ${who}'s app (ownership generation ${before.generation}) no longer runs the Planner here.`, {
        clientRequestId: `reset:${before.generation}:${before.owner.device}`,
        sessionGeneration,
        ownershipGeneration: before.generation,
      });
    }
    this.#refusals.delete(planId);
    const view = await this.#view(planId);
    this.#deps.events.emit("planner-changed", view);
    return view;
  }

  /**
   * Follows these plans' leases again (at start, after a sign-in): where nobody runs the Planner and a message this
   * app's person sent it still waits, this app takes it over as it would when a lease ends.
   */
  resume(planIds: Iterable<string>): void {
    for (const planId of planIds) {
      const id = planId as DocumentId;
      void this.state(id)
        .then((view) => (view.state === "unowned" ? this.#takeOverWaiting(id) : undefined))
        .catch(() => undefined);
    }
  }

  /**
   * Quitting: from now on this app claims nothing (a release ends its lease, and messages that wait would otherwise make
   * it claim again at once), then releases what it holds.
   */
  async quit(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#staggered.values()) clearTimeout(timer);
    await this.releaseAll();
  }

  /** Sign-out, credential expiry, quit: this app stops running the Planner everywhere, and the keepers are told. */
  async releaseAll(): Promise<void> {
    const releases: Promise<void>[] = [];
    for (const [planId, client] of this.#watched) if (client.owns(planId) !== null) releases.push(client.release(planId));
    await Promise.all(releases);
  }

  /** Something every plan's state shows changed on this app (the Planner switched off or on): windows hear each. */
  announceAll(): void {
    for (const planId of this.#watched.keys()) this.#announce(planId);
  }

  close(): void {
    this.#closed = true;
    for (const timer of this.#staggered.values()) clearTimeout(timer);
    for (const stop of this.#stops) stop();
  }

  /** The keeper of a plan's lease now: the relay while it is shared, this device otherwise. */
  keeperOf(planId: DocumentId): LeaseClient {
    return this.#clientFor(planId);
  }

  /** A write on the Planner's behalf was refused: the owner's window shows it as refused, never as published. */
  writeRefused(planId: DocumentId, reason: string): void {
    this.#refusals.set(planId, { code: "forbidden", message: `The Planner's write was refused and not published: ${reason}` });
    this.#announce(planId);
  }

  #clientFor(planId: DocumentId): LeaseClient {
    return this.#deps.plans.isShared(planId) ? this.#deps.relay : this.#deps.local;
  }

  #unreachable(planId: DocumentId): ChopinError | null {
    if (!this.#deps.plans.isShared(planId) || this.#deps.relayReachable()) return null;
    return new ChopinError("relay-unavailable", "The relay cannot be reached now, so nobody can be given the Planner in this shared plan; it is tried again when you send.");
  }

  /** Watches the plan's lease at its keeper (again when the keeper changed: a plan shared or made private). */
  async #follow(planId: DocumentId): Promise<LeaseClient> {
    const client = this.#clientFor(planId);
    const previous = this.#watched.get(planId);
    if (previous === client && client.known(planId) !== undefined) return client;
    if (previous && previous !== client && previous.owns(planId) !== null) await previous.release(planId);
    this.#watched.set(planId, client);
    // Asked even while the relay is away: the client remembers the watch and renews it on every reconnect.
    await client.watch(planId).catch(() => undefined);
    return client;
  }

  async #view(planId: DocumentId): Promise<PlannerState> {
    const client = this.#clientFor(planId);
    const known = client.known(planId);
    const generation = client.owns(planId);
    const owner = this.#shown(client, known?.owner ?? null);
    const refusal = this.#refusals.get(planId);
    const state: PlannerState["state"] =
      this.#unreachable(planId) !== null ? "unknown" : generation !== null ? "running-here" : owner !== null ? "running-elsewhere" : "unowned";
    return {
      documentId: planId,
      owner,
      ownedHere: generation !== null,
      ownershipGeneration: known?.generation ?? 0,
      sessionGeneration: await this.#deps.conversations.sessionGeneration(planId).catch(() => 0),
      state,
      keeper: client === this.#deps.relay ? "relay" : "this-device",
      offHere: this.#deps.offHere(),
      ...(refusal ? { refusal } : {}),
    };
  }

  /**
   * The relay names its users by handle and devices by wire peer id: shown as people and devices. This device's own
   * keeper holds leases for this app alone (under a name that never changes: compose-planner's LOCAL_LEASE_HOLDER), so
   * its holder is shown as this app's person.
   */
  #shown(client: LeaseClient, held: KnownLease["owner"]): PlannerState["owner"] {
    if (!held) return null;
    return client === this.#deps.relay ? { user: nameOfRelayHandle(held.user), device: deviceOfWirePeer(held.device) } : { user: this.#deps.personName(), device: held.device };
  }

  #announce(planId: DocumentId): void {
    if (this.#closed || !this.#watched.has(planId)) return;
    void this.#view(planId)
      .then((view) => this.#deps.events.emit("planner-changed", view))
      .catch(() => undefined);
  }

  /** A lease changed at its keeper: announce it, and take over waiting messages when it ended. */
  #leaseChanged(client: LeaseClient, lease: KnownLease): void {
    const planId = lease.channelId as DocumentId;
    if (this.#watched.get(planId) !== client) return;
    this.#announce(planId);
    if (lease.owner === null) void this.#takeOverWaiting(planId).catch(() => undefined);
  }

  async #takeOverWaiting(planId: DocumentId): Promise<void> {
    if (this.#closed) return;
    const waiting = await this.#deps.conversations.waitingForPlanner(planId);
    if (!waiting.some((message) => message.mine)) return;
    if (waiting[0]!.mine) {
      await this.invoke(planId);
      return;
    }
    // Someone else's message waits longest: their app goes first; this one claims only if theirs did not.
    clearTimeout(this.#staggered.get(planId));
    const timer = setTimeout(() => {
      this.#staggered.delete(planId);
      const client = this.#watched.get(planId);
      if (!this.#closed && client && client.known(planId)?.owner === null) void this.invoke(planId).catch(() => undefined);
    }, this.#deps.waitingClaimStaggerMs ?? PLANNER_WAITING_CLAIM_STAGGER_MS);
    timer.unref?.();
    this.#staggered.set(planId, timer);
  }
}
