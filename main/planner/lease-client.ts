/**
 * This app's side of Planner ownership at the relay (issue #25): it asks the relay to claim, renew, release and reset
 * channel leases, watches the channels it shows, and knows whether it may act as a channel's owner right now.
 *
 * Acting is decided by this app's own monotonic clock, never by comparing clocks with the relay: when a claim or renewal
 * is granted with `expiresInMs` left, the relay's lease cannot end before `sentAt + expiresInMs` (the relay started
 * its term after the request left here), so this app stops acting `stopMarginMs` before that, and earlier still if a
 * renewal is refused or the link goes. An owner that cannot renew therefore stops before the relay could give the
 * channel to anyone else, whatever either clock says the time is.
 *
 * What must stay true: `owns` answers only from a granted claim or renewal whose deadline has not passed; a refused
 * renewal, a push naming another owner or none, or a lost link ends it at once; requests are answered or time out.
 */
import type { FencedWriteRefusal, LeaseRequest, LeaseStateFrame, WireLease } from "../../shared/lease-wire.js";
import { ChopinError } from "../../shared/errors.js";
import { TypedEmitter } from "../util/typed-emitter.js";
import { PLANNER_LEASE_RENEW_EVERY_MS, PLANNER_LEASE_REQUEST_TIMEOUT_MS, PLANNER_LEASE_STOP_MARGIN_MS } from "../util/limits.js";

/** What carries lease frames: the relay link's adapter (main/sync/relay-client-adapter.ts), or a test's stand-in. */
export interface LeaseTransport {
  send(frame: { requestId: string; session: string; request: LeaseRequest }): boolean;
  onFrame(listener: (frame: LeaseStateFrame) => void): () => void;
  /** Told on every connect (agreed: whether lease frames are carried) and disconnect. */
  onLink(listener: (link: { agreed: boolean }) => void): () => void;
}

/** A channel's lease as this app knows it. */
export interface KnownLease {
  channelId: string;
  generation: number;
  owner: { user: string; device: string } | null;
}

interface Ownership {
  generation: number;
  /** Monotonic ms after which this app no longer acts as owner. */
  actUntil: number;
  renewTimer: NodeJS.Timeout | null;
}

export interface LeaseClientOptions {
  transport: LeaseTransport;
  /** This run of the app (a new one per start: the relay releases an earlier run's leases when asked). */
  session: string;
  /** Monotonic clock (ms). */
  now?: () => number;
  renewEveryMs?: number;
  stopMarginMs?: number;
  requestTimeoutMs?: number;
}

export class LeaseClient {
  readonly events = new TypedEmitter<{ lease: KnownLease; ownership: { channelId: string; owned: boolean } }>();
  readonly #options: Required<Omit<LeaseClientOptions, "transport" | "session">> & Pick<LeaseClientOptions, "transport" | "session">;
  readonly #known = new Map<string, KnownLease>();
  readonly #owned = new Map<string, Ownership>();
  readonly #pending = new Map<string, { resolve(frame: LeaseStateFrame): void; reject(error: Error): void; timer: NodeJS.Timeout }>();
  readonly #watched = new Set<string>();
  readonly #stops: (() => void)[] = [];
  #counter = 0;
  #closed = false;
  /** Lease frames are carried now (the last link event said so). */
  #linked = false;

  constructor(options: LeaseClientOptions) {
    this.#options = {
      now: () => performance.now(),
      renewEveryMs: PLANNER_LEASE_RENEW_EVERY_MS,
      stopMarginMs: PLANNER_LEASE_STOP_MARGIN_MS,
      requestTimeoutMs: PLANNER_LEASE_REQUEST_TIMEOUT_MS,
      ...options,
    };
    this.#stops.push(
      options.transport.onFrame((frame) => this.#receive(frame)),
      options.transport.onLink(({ agreed }) => {
        this.#linked = agreed;
        if (agreed) {
          void this.#rejoin();
          return;
        }
        // A lost link: no renewal can reach the keeper, so nothing is owned from now on (the lease may still run
        // there), and no answer can come on it (a fenced write is sent again on the next link).
        this.#rejectPending("The link to the relay went before it answered.");
        for (const channelId of [...this.#owned.keys()]) this.#stopActing(channelId);
      }),
    );
  }

  /** The lease this app last heard of for a channel (undefined before it asked or was told). */
  known(channelId: string): KnownLease | undefined {
    return this.#known.get(channelId);
  }

  /** The generation this app may act under in `channelId` right now, or null. */
  owns(channelId: string): number | null {
    const owned = this.#owned.get(channelId);
    if (!owned) return null;
    if (this.#options.now() >= owned.actUntil) {
      this.#stopActing(channelId);
      return null;
    }
    return owned.generation;
  }

  /** Follows a channel's lease: its current state now, and every change the relay pushes. */
  async watch(channelId: string): Promise<KnownLease> {
    this.#watched.add(channelId);
    const answer = await this.#ask({ op: "watch", channelId });
    if (!answer.ok || !answer.lease) throw new ChopinError("forbidden", answer.reason ?? "The relay would not say who runs the Planner here.");
    return this.#note(answer.lease);
  }

  /** Claims a channel for this app; resolves with the lease either way (owned by this app or someone else). */
  async claim(channelId: string): Promise<{ granted: boolean; lease: KnownLease }> {
    const sentAt = this.#options.now();
    const answer = await this.#ask({ op: "claim", channelId });
    if (!answer.lease) throw new ChopinError("forbidden", answer.reason ?? "The relay refused the claim.");
    const lease = this.#note(answer.lease);
    if (answer.ok) this.#startActing(answer.lease, sentAt);
    return { granted: answer.ok === true, lease };
  }

  /** Gives a channel up (sign-out, quit): acting stops now, then the relay is told. */
  async release(channelId: string): Promise<void> {
    const owned = this.#owned.get(channelId);
    if (!owned) return;
    this.#stopActing(channelId);
    const answer = await this.#ask({ op: "release", channelId, generation: owned.generation }).catch(() => null);
    if (answer?.lease) this.#note(answer.lease);
  }

  /**
   * Publishes the Planner's change under `generation` (issue #25's fenced write): the keeper stores and relays it only
   * if that generation is the channel's live one and this app holds it. A stale refusal means another app runs the
   * Planner now: acting here ends at once.
   */
  async fencedWrite(channelId: string, documentId: string, generation: number, changes: Uint8Array[]): Promise<{ ok: true } | { ok: false; refusal: FencedWriteRefusal; reason: string }> {
    const answer = await this.#ask({ op: "fenced-write", channelId, documentId, generation, changes });
    if (answer.lease) this.#note(answer.lease);
    if (answer.ok) return { ok: true };
    const refusal = answer.refusal ?? "stale-generation";
    if (refusal === "stale-generation" && this.#owned.get(channelId)?.generation === generation) this.#stopActing(channelId);
    return { ok: false, refusal, reason: answer.reason ?? "The write was refused." };
  }

  /** Resolves once lease frames are carried again (at once when they are), or false after `timeoutMs`. */
  whenLinked(timeoutMs: number): Promise<boolean> {
    if (this.#linked) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        stop();
        resolve(false);
      }, timeoutMs);
      timer.unref?.();
      const stop = this.#options.transport.onLink(({ agreed }) => {
        if (!agreed) return;
        clearTimeout(timer);
        stop();
        resolve(true);
      });
    });
  }

  /** An editor's reset: whoever runs the Planner here stops. */
  async reset(channelId: string): Promise<KnownLease> {
    const answer = await this.#ask({ op: "reset", channelId });
    if (!answer.ok || !answer.lease) throw new ChopinError("forbidden", answer.reason ?? "The relay refused the reset.");
    return this.#note(answer.lease);
  }

  close(): void {
    this.#closed = true;
    for (const channelId of [...this.#owned.keys()]) this.#stopActing(channelId);
    for (const stop of this.#stops) stop();
    this.#rejectPending("The app is closing.");
  }

  #rejectPending(sentence: string): void {
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(new ChopinError("relay-unavailable", sentence));
      this.#pending.delete(id);
    }
  }

  /** On every (re)connect: the relay releases what an earlier run of this app held, and watches resume. */
  async #rejoin(): Promise<void> {
    await this.#ask({ op: "release-earlier-runs" }).catch(() => undefined);
    for (const channelId of this.#watched) await this.watch(channelId).catch(() => undefined);
  }

  #ask(request: LeaseRequest): Promise<LeaseStateFrame> {
    if (this.#closed) return Promise.reject(new ChopinError("relay-unavailable", "The app is closing."));
    const requestId = `l${++this.#counter}`;
    return new Promise((resolve, reject) => {
      if (!this.#options.transport.send({ requestId, session: this.#options.session, request })) {
        // The link is gone even if its close has not been told yet: whenLinked waits for the next one.
        this.#linked = false;
        reject(new ChopinError("relay-unavailable", "The relay cannot be reached now, so nobody can be given the Planner here."));
        return;
      }
      const timer = setTimeout(() => {
        this.#pending.delete(requestId);
        reject(new ChopinError("timeout", "The relay did not answer about the Planner in time."));
      }, this.#options.requestTimeoutMs);
      this.#pending.set(requestId, { resolve, reject, timer });
    });
  }

  #receive(frame: LeaseStateFrame): void {
    if (frame.requestId !== undefined) {
      const pending = this.#pending.get(frame.requestId);
      if (!pending) return;
      this.#pending.delete(frame.requestId);
      clearTimeout(pending.timer);
      pending.resolve(frame);
      return;
    }
    if (frame.lease) this.#note(frame.lease);
  }

  /** Takes the relay's word for a channel's lease; one that names another owner, or none, ends acting here. */
  #note(lease: WireLease): KnownLease {
    const known: KnownLease = { channelId: lease.channelId, generation: lease.generation, owner: lease.owner };
    this.#known.set(lease.channelId, known);
    const owned = this.#owned.get(lease.channelId);
    if (owned && (lease.owner === null || lease.generation !== owned.generation)) this.#stopActing(lease.channelId);
    this.events.emit("lease", known);
    return known;
  }

  #startActing(lease: WireLease, sentAt: number): void {
    const previous = this.#owned.get(lease.channelId);
    if (previous?.renewTimer) clearTimeout(previous.renewTimer);
    const actUntil = sentAt + (lease.expiresInMs ?? 0) - this.#options.stopMarginMs;
    const renewTimer = setTimeout(() => void this.#renew(lease.channelId), this.#options.renewEveryMs);
    renewTimer.unref?.();
    this.#owned.set(lease.channelId, { generation: lease.generation, actUntil, renewTimer });
    if (!previous) this.events.emit("ownership", { channelId: lease.channelId, owned: true });
  }

  async #renew(channelId: string): Promise<void> {
    const owned = this.#owned.get(channelId);
    if (!owned) return;
    const sentAt = this.#options.now();
    let answer: LeaseStateFrame;
    try {
      answer = await this.#ask({ op: "renew", channelId, generation: owned.generation });
    } catch {
      // Not renewed: acting ends at the deadline already set; try again meanwhile.
      if (this.#owned.get(channelId) === owned) {
        owned.renewTimer = setTimeout(() => void this.#renew(channelId), this.#options.renewEveryMs);
        owned.renewTimer.unref?.();
      }
      return;
    }
    if (this.#owned.get(channelId) !== owned) return;
    if (answer.ok && answer.lease && answer.lease.generation === owned.generation) this.#startActing(answer.lease, sentAt);
    else {
      this.#stopActing(channelId);
      if (answer.lease) this.#note(answer.lease);
    }
  }

  #stopActing(channelId: string): void {
    const owned = this.#owned.get(channelId);
    if (!owned) return;
    if (owned.renewTimer) clearTimeout(owned.renewTimer);
    this.#owned.delete(channelId);
    this.events.emit("ownership", { channelId, owned: false });
  }
}
