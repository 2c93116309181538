/**
 * The relay's side of Planner ownership (issue #25): it keeps the lease table (shared/node/planner-leases.ts) for the
 * channels it serves and answers the lease frames of connections that agreed to them (shared/lease-wire.ts). Every
 * connection watching a channel is told at once when its lease changes: a new owner, a release, a reset, and an
 * expiry, which the relay's own timer notices.
 *
 * What must stay true: the holder is the connection's authenticated user and the device it joined as, never what a
 * frame says; a channel is a plan the user may sync right now (the relay's access decision, a deleted plan refused);
 * answers carry how long a lease has left, never a time of the relay's clock.
 */
import type Database from "better-sqlite3";
import type { LeaseRequestFrame, LeaseStateFrame, WireLease } from "../lease-wire.js";
import { PLANNER_LEASE_TTL_MS } from "../limits.js";
import { PlannerLeases, type LeaseHolder, type LeaseState } from "./planner-leases.js";
import type { DocumentId } from "@automerge/automerge-repo";
import type { FencedWriteRefusal } from "../lease-wire.js";
import { conversationIdOf } from "./conversation-identity.js";
import type { FencedTarget } from "./fenced-write-target.js";

export interface PlannerLeaseServiceOptions {
  db: Database.Database;
  /** Whether `user` may sync the plan `channelId` now (the relay's access decision, deletions included). */
  mayUse(user: string, channelId: string): boolean | Promise<boolean>;
  send(sessionId: string, frame: Omit<LeaseStateFrame, "type" | "senderId" | "targetId">): boolean;
  /**
   * Opens the keeper's copy of a channel's document for a fenced write (the plan or its conversation; the service has
   * checked that it is one of the two): a refusal when it is not held here. Without it, fenced writes are refused.
   */
  fencedTarget?(documentId: string): Promise<FencedTarget | FencedWriteRefusal>;
  ttlMs?: number;
  now?: () => number;
  log?: (line: string) => void;
}

export class PlannerLeaseService {
  readonly leases: PlannerLeases;
  readonly #options: PlannerLeaseServiceOptions;
  readonly #now: () => number;
  /** channel -> sessions watching it. */
  readonly #watchers = new Map<string, Set<string>>();
  /** channel -> the timer that tells watchers when its lease expires. */
  readonly #expiries = new Map<string, NodeJS.Timeout>();

  constructor(options: PlannerLeaseServiceOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.leases = new PlannerLeases(options.db, { ttlMs: options.ttlMs ?? PLANNER_LEASE_TTL_MS, now: this.#now });
  }

  async handle(sessionId: string, identity: { user: string; peerId: string }, frame: LeaseRequestFrame): Promise<void> {
    const { requestId, request } = frame;
    const answer = (ok: boolean, lease?: LeaseState, reason?: string, released?: string[], refusal?: FencedWriteRefusal) =>
      void this.#options.send(sessionId, {
        requestId,
        ok,
        ...(lease ? { lease: this.#wire(lease) } : {}),
        ...(reason ? { reason } : {}),
        ...(released ? { released } : {}),
        ...(refusal ? { refusal } : {}),
      });
    const holder: LeaseHolder = { user: identity.user, device: identity.peerId, session: frame.session };
    if (request.op === "release-earlier-runs") {
      const released = this.leases.releaseEarlierRuns(holder.user, holder.device, holder.session);
      for (const channelId of released) this.#changed(this.leases.state(channelId));
      return answer(true, undefined, undefined, released);
    }
    const { channelId } = request;
    let allowed = false;
    try {
      allowed = await this.#options.mayUse(identity.user, channelId);
    } catch {
      allowed = false;
    }
    if (!allowed) return answer(false, undefined, "This relay does not serve that plan to you.");
    switch (request.op) {
      case "watch": {
        let sessions = this.#watchers.get(channelId);
        if (!sessions) this.#watchers.set(channelId, (sessions = new Set()));
        sessions.add(sessionId);
        return answer(true, this.leases.state(channelId));
      }
      case "claim": {
        const outcome = this.leases.claim(channelId, holder);
        if (outcome.ok) this.#changed(outcome.state, outcome.fresh);
        return answer(outcome.ok, outcome.state, outcome.ok ? undefined : "Another app runs the Planner in this plan.");
      }
      case "renew": {
        const outcome = this.leases.renew(channelId, holder, request.generation);
        if (outcome.ok) this.#schedule(outcome.state);
        return answer(outcome.ok, outcome.state, outcome.ok ? undefined : "This app no longer holds the Planner in this plan.");
      }
      case "release": {
        const before = this.leases.state(channelId);
        const after = this.leases.release(channelId, holder, request.generation);
        if (before.owner !== null && after.owner === null) this.#changed(after);
        return answer(true, after);
      }
      case "fenced-write": {
        const refuse = (refusal: FencedWriteRefusal, reason: string) => answer(false, this.leases.state(channelId), reason, undefined, refusal);
        if (request.documentId !== channelId && request.documentId !== conversationIdOf(channelId as DocumentId)) {
          return refuse("not-this-channel", "A fenced write goes to the channel's plan or its conversation only.");
        }
        const target = this.#options.fencedTarget ? await this.#options.fencedTarget(request.documentId).catch((): FencedWriteRefusal => "missing-dependencies") : "missing-dependencies";
        if (typeof target === "string") return refuse(target, "This relay does not hold that document yet.");
        // Sent again after a lost answer: the keeper took these bytes under a live fence the first time.
        if (target.holds(request.changes)) return answer(true, this.leases.state(channelId));
        // From the fence to the apply nothing yields: no claim, renewal, reset or expiry can come between them.
        if (!this.leases.accepts(channelId, holder, request.generation)) {
          this.#options.log?.(`fenced write to ${request.documentId} refused: generation ${request.generation} from ${identity.user} is not the live one`);
          return refuse("stale-generation", `Ownership generation ${request.generation} no longer runs the Planner here; the write was not stored.`);
        }
        const refusal = target.refusalOf(request.changes);
        if (refusal) return refuse(refusal, refusal === "malformed" ? "The write is not Automerge change data." : "The write depends on changes this relay does not hold yet.");
        target.apply(request.changes);
        await target.persist();
        return answer(true, this.leases.state(channelId));
      }
      case "reset": {
        const { before, after } = this.leases.reset(channelId);
        if (before.owner !== null) {
          this.#options.log?.(`planner ownership of ${channelId} reset by ${identity.user} (generation ${before.generation} held by ${before.owner.user})`);
          this.#changed(after);
        }
        return answer(true, after);
      }
    }
  }

  /** A connection is gone: it watches nothing any more (its leases stay until they expire or are released). */
  left(sessionId: string): void {
    for (const [channelId, sessions] of this.#watchers) {
      sessions.delete(sessionId);
      if (sessions.size === 0) this.#watchers.delete(channelId);
    }
  }

  close(): void {
    for (const timer of this.#expiries.values()) clearTimeout(timer);
    this.#expiries.clear();
    this.#watchers.clear();
  }

  /** Tells every watcher the channel's lease now, and follows its expiry. */
  #changed(state: LeaseState, push = true): void {
    this.#schedule(state);
    if (!push) return;
    for (const sessionId of this.#watchers.get(state.channelId) ?? []) this.#options.send(sessionId, { lease: this.#wire(state) });
  }

  #schedule(state: LeaseState): void {
    clearTimeout(this.#expiries.get(state.channelId));
    this.#expiries.delete(state.channelId);
    if (state.expiresAt === null) return;
    const timer = setTimeout(() => {
      this.#expiries.delete(state.channelId);
      const now = this.leases.state(state.channelId);
      // Renewed meanwhile: its own timer follows it.
      if (now.owner === null) this.#changed(now);
    }, Math.max(0, state.expiresAt - this.#now()) + 1);
    timer.unref?.();
    this.#expiries.set(state.channelId, timer);
  }

  #wire(state: LeaseState): WireLease {
    return {
      channelId: state.channelId,
      generation: state.generation,
      owner: state.owner ? { user: state.owner.user, device: state.owner.device } : null,
      expiresInMs: state.expiresAt === null ? null : Math.max(0, state.expiresAt - this.#now()),
    };
  }
}
