/**
 * The window fast link: a NetworkAdapter that wraps any automerge-repo adapter on either end of a window <-> core link
 * (host mode: WebSocketServerAdapter in the core, BrowserWebSocketClientAdapter in the page; Electron: a
 * MessageChannelNetworkAdapter on each end) and carries fresh Automerge change bytes across it at once, as the relay
 * fast path does between core and relay (change-fast-path.ts). Without it a keystroke waited for automerge-repo's
 * per-document sync throttle and a round trip on each of the two window hops of a teammate's edit (~60 ms of ~70).
 *
 * What must stay true:
 * - Every message the Repo sends or the inner adapter emits passes through unchanged, except fast-link batches, which
 *   are handled here and never reach the Repo. Peer metadata reaches the Repo without the fast-link field.
 * - A peer gets batches only once both ends offered the link in the handshake metadata (messages.ts) and this end has
 *   a Repo (attachRepo before the Repo connects); each connection starts a fresh link, each disconnect ends it.
 * - Only documents the window itself syncs with the core ride the link, both ways: the window's end counts its own
 *   outbound sync/request messages, the core's end the window's inbound ones (side).
 * - While a peer's link is up, the sync protocol to it is paced to FAST_PATH_SYNC_INTERVAL_MS (the safety net only);
 *   the pace is cleared when the link goes.
 * - The core serves many windows through one adapter (host mode): one link per peer, each blind to the others' batches
 *   except through the core's document, so a window's edit reaches the other windows and the relay, not its origin.
 * - Environment-neutral: the window runs this; the change hash is injected (node: shared/node/change-hash.ts; browser:
 *   change-hash.ts).
 */
import {
  NetworkAdapter,
  type Message,
  type NetworkAdapterInterface,
  type PeerCandidatePayload,
  type PeerDisconnectedPayload,
  type PeerId,
  type PeerMetadata,
  type Repo,
} from "@automerge/automerge-repo";
import { FAST_PATH_SYNC_INTERVAL_MS } from "../limits.js";
import { notePeerHas, syncPacing, syncWithPeerNow } from "../sync-pacing.js";
import { ChangeFastPath, type FastPathStats } from "./change-fast-path.js";
import { FAST_LINK_MESSAGE_TYPE, offerFastLink, offersFastLink, parseFastLinkBatch, withoutFastLink } from "./messages.js";

export interface FastLinkOptions {
  /**
   * "window": this end is a window's replica, which decides what it syncs (its outbound sync/request messages admit a
   * document). "core": this end serves windows (their inbound sync/request messages admit a document).
   */
  side: "window" | "core";
  /** Each change's hash, or null when one is not a well-formed Automerge change. */
  hashes(changes: readonly Uint8Array[]): string[] | null;
  /** The sync protocol's pace to a peer while its link is up; FAST_PATH_SYNC_INTERVAL_MS unless a test says otherwise. */
  syncIntervalMs?: number;
  /**
   * The share decision for `peer`, asked for every batch sent to or received from it (ChangeFastPathOptions.mayCarry):
   * the same one the Repo's shareConfig makes for that peer. Default: every document.
   */
  mayCarry?(peer: string, documentId: string): boolean;
}

export class FastLinkAdapter extends NetworkAdapter {
  readonly inner: NetworkAdapterInterface;
  readonly #options: FastLinkOptions;
  #repo: Repo | null = null;
  /** Peers whose handshake agreed to the link, on their current connection. */
  readonly #links = new Map<string, ChangeFastPath>();

  constructor(inner: NetworkAdapterInterface, options: FastLinkOptions) {
    super();
    this.inner = inner;
    this.#options = options;
    inner.on("peer-candidate", (payload) => this.#onPeerCandidate(payload));
    inner.on("peer-disconnected", (payload) => this.#onPeerDisconnected(payload));
    inner.on("message", (message) => this.#onMessage(message));
    inner.on("close", () => {
      this.#closeAll();
      this.emit("close");
    });
  }

  /** The Repo whose documents the link carries; call it right after `new Repo` (before the adapter connects). */
  attachRepo(repo: Repo): void {
    if (this.#repo === repo) return;
    this.#closeAll();
    this.#repo = repo;
  }

  /** Stops carrying changes (the adapter is leaving the Repo); the sync protocol goes back to its stock pace. */
  detachRepo(): void {
    this.#closeAll();
    this.#repo = null;
  }

  /** Whether `peerId`'s current connection uses the link. */
  isFastPeer(peerId: string): boolean {
    return this.#links.has(peerId);
  }

  /** The link's counters for `peerId`'s current connection; null when that peer has no link. */
  statsFor(peerId: string): FastPathStats | null {
    const link = this.#links.get(peerId);
    return link ? { ...link.stats } : null;
  }

  isReady(): boolean {
    return this.inner.isReady();
  }

  whenReady(): Promise<void> {
    return this.inner.whenReady();
  }

  connect(peerId: PeerId, peerMetadata?: PeerMetadata): void {
    this.peerId = peerId;
    // A reconnect without metadata (networkSubsystem.reconnect) keeps what the Repo first presented.
    if (peerMetadata !== undefined) this.peerMetadata = peerMetadata;
    this.inner.connect(peerId, this.#repo ? offerFastLink(this.peerMetadata) : this.peerMetadata);
  }

  disconnect(): void {
    this.#closeAll();
    this.inner.disconnect();
  }

  send(message: Message): void {
    this.inner.send(message);
    if (this.#options.side === "window") this.#links.get(message.targetId)?.noteOutbound(message.type, documentIdOf(message));
  }

  #onPeerCandidate({ peerId, peerMetadata }: PeerCandidatePayload): void {
    const agreed = this.#repo !== null && offersFastLink(peerMetadata);
    // A candidate for a peer that is still connected is the same connection (MessageChannelNetworkAdapter announces
    // each peer twice, on "arrive" and on "welcome"; the Repo ignores the repeat too): its link keeps what it knows.
    // A new connection is always preceded by peer-disconnected, which ended the old link.
    if (!agreed) this.#close(peerId);
    else if (!this.#links.has(peerId)) this.#open(peerId, this.#repo!);
    this.emit("peer-candidate", { peerId, peerMetadata: withoutFastLink(peerMetadata) });
  }

  #onPeerDisconnected(payload: PeerDisconnectedPayload): void {
    this.#close(payload.peerId);
    this.emit("peer-disconnected", payload);
  }

  #onMessage(message: Message): void {
    if ((message as { type?: unknown }).type === FAST_LINK_MESSAGE_TYPE) {
      const batch = parseFastLinkBatch(message);
      if (batch) this.#links.get(message.senderId)?.receive(batch.documentId, batch.changes);
      return;
    }
    if (this.#options.side === "core") this.#links.get(message.senderId)?.noteInbound(message.type, documentIdOf(message));
    this.emit("message", message);
  }

  #open(peer: PeerId, repo: Repo): void {
    const link = new ChangeFastPath({
      send: (documentId, changes) => this.#sendBatch(peer, documentId, changes),
      syncNow: (r, documentId) => void syncWithPeerNow(r, documentId, peer),
      notePeerHas: (r, documentId, hashes) => notePeerHas(r, documentId, peer, hashes),
      hashes: this.#options.hashes,
      mayCarry: (documentId) => this.#options.mayCarry?.(peer, documentId) ?? true,
    });
    link.attach(repo);
    this.#links.set(peer, link);
    if (this.peerId !== undefined) syncPacing().set(this.peerId, peer, this.#options.syncIntervalMs ?? FAST_PATH_SYNC_INTERVAL_MS);
  }

  #close(peer: string): void {
    const link = this.#links.get(peer);
    if (!link) return;
    this.#links.delete(peer);
    link.detach();
    if (this.peerId !== undefined) syncPacing().clear(this.peerId, peer);
  }

  #closeAll(): void {
    for (const peer of [...this.#links.keys()]) this.#close(peer);
  }

  #sendBatch(peer: PeerId, documentId: string, changes: Uint8Array[]): boolean {
    if (!this.#links.has(peer) || this.peerId === undefined) return false;
    const batch = { type: FAST_LINK_MESSAGE_TYPE, senderId: this.peerId, targetId: peer, documentId, changes };
    try {
      this.inner.send(batch as unknown as Message);
      return true;
    } catch {
      // A transport that refuses (socket not open) loses the batch; the link goes with the connection.
      return false;
    }
  }
}

function documentIdOf(message: Message): string | undefined {
  const documentId = (message as { documentId?: unknown }).documentId;
  return typeof documentId === "string" ? documentId : undefined;
}
