/**
 * What the app core holds for its relay: the NetworkAdapter to add to its Repo, the connection status with a typed
 * lastError (the UI's sync indicator), and which peers are relays, so the core's shareConfig can keep private
 * documents away from them. One adapter lives for the whole connection and reconnects its own socket, which keeps
 * the Repo's peer metadata right across reconnects (automerge.md gotcha 5).
 *
 * What must stay true: private documents never reach a peer for which isRelayPeer() is true — the core's shareConfig
 * enforces that using this module; a 401 ends in 'unauthorized' (no retry until setToken), never an exception.
 */
import type { Repo } from "@automerge/automerge-repo";
import type { ErrorShape } from "../../shared/errors.js";
import { TypedEmitter } from "../util/typed-emitter.js";
import { RelayClientAdapter, type RelayConnectionState, type RelayStatusEvent } from "./relay-client-adapter.js";

export type { RelayConnectionState, RelayStatusEvent } from "./relay-client-adapter.js";

export interface RelayConnectionOptions {
  /** ws:// or wss:// address of the relay. */
  url: string;
  token: string;
  /** The Repo's peer id ("<handle>:<device>", or a plain device id with qualifyPeerId); the Repo must use the same. */
  peerId: string;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** The relay's message limit (default MAX_RELAY_MESSAGE_BYTES); a relay started with another limit needs it here. */
  maxMessageBytes?: number;
  /** Present a plain peer id as "<handle>:<device>" (RelayClientAdapterOptions.qualifyPeerId). */
  qualifyPeerId?: boolean;
  /** The share decision, asked for every frame that names a document (RelayClientAdapterOptions.mayCarry). */
  mayCarry?: (documentId: string) => boolean;
}

export class RelayConnection {
  readonly url: string;
  readonly peerId: string;
  /** Add to the core's Repo (repo.networkSubsystem.addNetworkAdapter or `network: [...]`). */
  readonly adapter: RelayClientAdapter;
  readonly events = new TypedEmitter<{ status: RelayStatusEvent }>();
  #closed = false;

  constructor(options: RelayConnectionOptions) {
    this.url = options.url;
    this.peerId = options.peerId;
    this.adapter = new RelayClientAdapter({
      url: options.url,
      token: options.token,
      peerId: options.peerId,
      minBackoffMs: options.minBackoffMs,
      maxBackoffMs: options.maxBackoffMs,
      maxMessageBytes: options.maxMessageBytes,
      qualifyPeerId: options.qualifyPeerId,
      mayCarry: options.mayCarry,
    });
    this.adapter.statusEvents.on("status", (event) => this.events.emit("status", event));
  }

  get status(): RelayConnectionState {
    return this.adapter.state;
  }

  get lastError(): ErrorShape | null {
    return this.adapter.lastError;
  }

  /** When the next connection attempt starts (Date.now() ms) while offline and retrying; null otherwise. */
  get nextRetryAt(): number | null {
    return this.adapter.nextRetryAt;
  }

  /** Subscribes to status changes; returns the unsubscribe function. */
  onStatus(listener: (event: RelayStatusEvent) => void): () => void {
    return this.events.on("status", listener);
  }

  /** Called with each batch of changes the relay sent on the fast path, once applied: the relay holds them. */
  onReceived(listener: (documentId: string, hashes: readonly string[]) => void): () => void {
    return this.adapter.deliveryEvents.on("received", ({ documentId, hashes }) => listener(documentId, hashes));
  }

  /**
   * Turns on the change fast path for `repo` (the Repo this connection's adapter is added to): fresh changes reach
   * the relay at once instead of after automerge-repo's ~100 ms per-document sync throttle. Call before adding the
   * adapter to the Repo.
   */
  attachRepo(repo: Repo): void {
    if (!this.#closed) this.adapter.attachRepo(repo);
  }

  /** Whether a Repo peer id is reached through this relay (the relay, or a member whose presence it forwarded). */
  isRelayPeer(peerId: string): boolean {
    return this.adapter.isRelayPeer(peerId);
  }

  /** New credentials after 'unauthorized'; reconnects at once. */
  setToken(token: string): void {
    if (!this.#closed) this.adapter.setToken(token);
  }

  /** Disconnects for good. The caller removes the adapter from its Repo if the Repo lives on. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.adapter.disconnect();
    this.adapter.detachRepo();
  }
}
