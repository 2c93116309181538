/**
 * The lease keeper of this device's local-only plans (issue #25): the relay's own lease service
 * (shared/node/planner-lease-service.ts) over the app's SQLite, reached through an in-process transport, so a private
 * plan's Planner ownership runs the same code and the same LeaseClient as a shared plan's, only without a wire.
 *
 * What must stay true: it keeps leases only for plans this device holds and does not share (a shared plan's lease is
 * the relay's alone); answers arrive asynchronously, as they would over a wire, so no caller depends on re-entrancy;
 * the link is "agreed" once, after construction, which makes the LeaseClient release an earlier run's leases (the
 * seed's "startup clears owner references") while the generations stay.
 */
import type Database from "better-sqlite3";
import { LEASE_REQUEST_TYPE, LEASE_STATE_TYPE, type FencedWriteRefusal, type LeaseStateFrame } from "../../shared/lease-wire.js";
import type { FencedTarget } from "../../shared/node/fenced-write-target.js";
import { PlannerLeaseService } from "../../shared/node/planner-lease-service.js";
import { TypedEmitter } from "../util/typed-emitter.js";
import type { LeaseTransport } from "./lease-client.js";

const LOCAL_SESSION = "local";
const LOCAL_PEER = "this-device";

export interface LocalLeaseKeeperOptions {
  db: Database.Database;
  /** Whether this device keeps the channel's lease: a plan it holds and does not share. */
  keeps(channelId: string): boolean;
  /** Who this app's person is, as the lease names them. */
  holder(): { user: string; device: string };
  /** This device's copy of a channel's document, for a fenced write to a local-only plan. */
  fencedTarget?(documentId: string): Promise<FencedTarget | FencedWriteRefusal>;
  ttlMs?: number;
  now?: () => number;
}

export class LocalLeaseKeeper {
  readonly service: PlannerLeaseService;
  readonly #options: LocalLeaseKeeperOptions;
  readonly #events = new TypedEmitter<{ frame: LeaseStateFrame; link: { agreed: boolean } }>();
  #closed = false;

  constructor(options: LocalLeaseKeeperOptions) {
    this.#options = options;
    this.service = new PlannerLeaseService({
      db: options.db,
      mayUse: (_user, channelId) => options.keeps(channelId),
      send: (_session, frame) => {
        if (this.#closed) return false;
        queueMicrotask(() => this.#events.emit("frame", { type: LEASE_STATE_TYPE, senderId: LOCAL_PEER, targetId: LOCAL_PEER, ...frame }));
        return true;
      },
      ...(options.fencedTarget ? { fencedTarget: options.fencedTarget } : {}),
      ...(options.ttlMs !== undefined ? { ttlMs: options.ttlMs } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
    setImmediate(() => {
      if (!this.#closed) this.#events.emit("link", { agreed: true });
    });
  }

  readonly transport: LeaseTransport = {
    send: (frame) => {
      if (this.#closed) return false;
      const { user, device } = this.#options.holder();
      const request = { type: LEASE_REQUEST_TYPE, senderId: LOCAL_PEER, targetId: LOCAL_PEER, ...frame } as const;
      queueMicrotask(() => void this.service.handle(LOCAL_SESSION, { user, peerId: device }, request));
      return true;
    },
    onFrame: (listener) => this.#events.on("frame", listener),
    onLink: (listener) => this.#events.on("link", listener),
  };

  close(): void {
    this.#closed = true;
    this.service.close();
  }
}
