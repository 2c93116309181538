/**
 * The relay end of the relay wire: a NetworkAdapter fed with already-authenticated WebSockets (server.ts checks the
 * token at the HTTP upgrade). Written instead of automerge-repo's WebSocketServerAdapter because the relay must bind
 * peer ids to users, refuse malformed or oversized frames with a reason while staying up, and cut a revoked user.
 *
 * What must stay true:
 * - A socket speaks only as the peer id it joined with, and only to this relay; anything else closes that socket,
 *   except ephemeral (presence) messages under another sender's id: an app core relays its windows' presence under
 *   each window's peer id (automerge-repo's random "peer-..." id, as a window's Repo has no peer id of its own).
 *   Such a sender must belong to the socket: namespaced under its peer id ("<peerId>/...") or its user's handle
 *   ("<handle>:..."), or a plain id no other user owns (ownerOfPeer); it is then bound to the core that first relayed
 *   it (user and peer id, so the binding outlives the socket: that core's next socket may go on relaying it, nobody
 *   else's may) until nobody relayed it for RELAY_PRESENCE_SENDER_TTL_MS. The id of a joined peer, or one bound to
 *   another core, is an echo (every core re-broadcasts the presence it receives, back to the relay too) and is
 *   dropped quietly; any other sender is dropped with a reason (onRelayRefused). Dropping, not closing: a member that
 *   just left is still echoed for a moment.
 * - The Repo never sees a client's own peer id: each connection is a fresh session peer "<peerId>#s<n>", so the
 *   Repo's per-peer sync state (which automerge-repo keeps in memory across a disconnect) starts empty on every
 *   reconnect. Stale per-peer sync state is what makes a reconnecting client loop forever (automerge.md gotcha 1);
 *   outbound frames are translated back to the client's peer id.
 * - A member cut off (cutWhere: revoked, or no longer admitted) is said goodbye for first, in the name of each
 *   presence sender its socket relayed on each document (the last RELAY_MAX_GOODBYES_PER_CONNECTION pairs), so
 *   teammates stop showing them at once instead of after the heartbeat TTL.
 * - A join with a peer id the user may not present is refused (4403), or with the code and reason authorizePeer gave;
 *   a second join by the SAME user and peer id replaces the first (4409 to the old socket; the Repo sees
 *   peer-disconnected then peer-candidate).
 * - Nothing an inbound socket sends can throw out of this adapter.
 * - Change fast path ("changes" frames, see shared/sync-wire.ts and fast-path.ts): agreed per connection only when
 *   the client's join listed the feature and onFastChanges is set; such frames never reach the Repo, a frame on a
 *   connection that did not agree or above FAST_PATH_MAX_BYTES closes it (1008), and the relay sends them only to
 *   connections that agreed.
 * - A well-formed message checkMessage drops (a refused write into someone's agent chat: chat-write-guard.ts) never
 *   reaches the Repo and keeps its socket: closing would also stop the sender reading documents it may read, and the
 *   sync protocol tolerates a lost message (the sender's next exchange with the relay's copy starts from the heads
 *   that copy shows). Such drops are counted (droppedWrites) and told once per connection (onWriteRefused).
 */
import { FEATURE_PLANNER_LEASE, LEASE_REQUEST_TYPE, LEASE_STATE_TYPE, leaseRequestFrameSchema, type LeaseRequestFrame, type LeaseStateFrame } from "../shared/lease-wire.js";
import { NetworkAdapter, type Message, type PeerId, type PeerMetadata } from "@automerge/automerge-repo";
import type { WebSocket } from "ws";
import { FAST_PATH_MAX_BYTES, RELAY_JOIN_TIMEOUT_MS, RELAY_KEEPALIVE_MS } from "../shared/limits.js";
import { RELAY_CLOSE_GRACE_MS, RELAY_MAX_BUFFERED_BYTES, RELAY_MAX_GOODBYES_PER_CONNECTION, RELAY_MAX_PRESENCE_SENDERS, RELAY_PRESENCE_BUFFER_BYTES, RELAY_PRESENCE_SENDER_TTL_MS } from "./limits.js";
import { presenceGoodbye } from "../shared/presence-goodbye.js";
import {
  CLOSE_CODES,
  FAST_CHANGES_TYPE,
  FEATURE_FAST_CHANGES,
  RELAY_PROTOCOL_VERSION,
  decodeFrame,
  encodeFrame,
  batchBytes,
  hasFeature,
  isFastChangesFrame,
  isJoinFrame,
  type FastChangesFrame,
  type JoinFrame,
  type RepoFrame,
  type WireFrame,
} from "../shared/sync-wire.js";
import type { GuardVerdict, InboundVerdict } from "./message-guard.js";

/** A join refused for a reason other than the peer id being someone else's. */
export interface PeerRefusal {
  code: number;
  reason: string;
}

/** The identity server.ts established for a socket before handing it over. */
export interface SocketIdentity {
  user: string;
  tokenHash: string;
}

/** Who one connection is, for the operator's log: never a token. */
export interface ConnectionFacts {
  user: string;
  /** null until the connection joined. */
  peerId: string | null;
  /** The remote address server.ts saw at the upgrade. */
  address: string | undefined;
}

export interface RelayServerAdapterOptions {
  /**
   * Whether `user` may present `peerId` (false: refused 4403, it is someone else's), or the close code and reason of
   * another refusal. Default: anyone may present anything (the acceptance suite's setting).
   */
  authorizePeer?: (user: string, peerId: string) => boolean | PeerRefusal;
  /**
   * Whether presence from a session for a document may reach the Repo; other presence is dropped first. Default: all
   * presence passes (the acceptance suite's setting).
   */
  acceptsPresence?: (sessionId: string, documentId: string | undefined) => boolean;
  /** Checks a repo message from a connection of `user` before the Repo sees it. Default: everything passes. */
  checkMessage?: (frame: RepoFrame, user: string) => InboundVerdict;
  /** checkMessage dropped a message of this connection (a refused write); told once per connection. */
  onWriteRefused?: (sessionId: string, reason: string) => void;
  /** Sees every admitted repo message (senderId already the session peer id), before the Repo does. */
  onInbound?: (sessionId: string, frame: RepoFrame) => void;
  /** A session peer appeared; the Repo is told next. */
  onJoin?: (sessionId: string, user: string) => void;
  /** A session peer is gone; the Repo is told next. */
  onLeave?: (sessionId: string, user: string) => void;
  /**
   * Handles a fast-path batch from a session that agreed to the feature (senderId already the session peer id); a
   * refusal closes that socket. Unset: the relay does not offer the fast path.
   */
  onFastChanges?: (sessionId: string, frame: FastChangesFrame) => GuardVerdict;
  /**
   * Handles a Planner-ownership request from a session that agreed to the feature (issue #25; shared/lease-wire.ts),
   * with the connection's authenticated user and the peer id it joined with. Such frames never reach the Repo; one on
   * a connection that did not agree, or that does not pass the schema, closes it. Unset: the relay does not offer it.
   */
  onLease?: (sessionId: string, identity: { user: string; peerId: string }, frame: LeaseRequestFrame) => void;
  /** What the Repo is told about a joining peer. Default: what the peer presented. */
  presentMetadata?: (presented: PeerMetadata) => PeerMetadata;
  /**
   * The user a peer id belongs to, or undefined when nobody owns it; must not bind anything. Default: the handle
   * before the first ':' ("<handle>:<device>"), else nobody.
   */
  ownerOfPeer?: (peerId: string) => string | undefined;
  /** Presence relayed under a sender id the socket does not own was dropped; told once per connection. */
  onRelayRefused?: (sessionId: string, reason: string) => void;
  /** A connection joined (the one it replaced, if any, is already closed). */
  onJoined?: (facts: ConnectionFacts) => void;
  /** An accepted connection closed, from either side; told exactly once per accepted connection. */
  onClosed?: (facts: ConnectionFacts, code: number, reason: string) => void;
  joinTimeoutMs?: number;
  keepAliveMs?: number;
  /** Clock for presence sender bindings (RELAY_PRESENCE_SENDER_TTL_MS). Default: Date.now. */
  now?: () => number;
  /** Presence sender bindings kept at most (RELAY_MAX_PRESENCE_SENDERS by default). */
  maxPresenceSenders?: number;
  /** (document, sender) pairs remembered per connection for goodbyes at a cut (RELAY_MAX_GOODBYES_PER_CONNECTION). */
  maxGoodbyesPerConnection?: number;
  /** Queued bytes past which presence to a socket is dropped (RELAY_PRESENCE_BUFFER_BYTES). */
  presenceBufferBytes?: number;
  /** Queued bytes past which a socket is closed 1013 (RELAY_MAX_BUFFERED_BYTES). */
  maxBufferedBytes?: number;
}

/** Who may relay presence under a sender id: the core that first did, whichever socket it uses now. */
interface RelayedSender {
  user: string;
  peerId: string;
  /** When a frame under this id was last relayed (the binding lapses RELAY_PRESENCE_SENDER_TTL_MS later). */
  lastRelayedAt: number;
}

interface Connection {
  ws: WebSocket;
  identity: SocketIdentity;
  address: string | undefined;
  peerId: string | null;
  /** The peer id the Repo knows this connection by. */
  sessionId: string | null;
  closed: boolean;
  alive: boolean;
  joinTimer: NodeJS.Timeout | null;
  /** Agreed to the change fast path at join. */
  fast: boolean;
  /** Agreed to the Planner-ownership frames at join. */
  lease: boolean;
  /** Presence frames dropped for a sender id this socket does not own. */
  refusedRelays: number;
  /** Messages checkMessage dropped (refused writes). */
  refusedWrites: number;
  /** (document, sender) pairs whose presence this socket relayed, least recently used first; for goodbyes at a cut. */
  spoke: Map<string, { documentId: string; sender: string }>;
}

const SESSION_SUFFIX = /#s\d+$/;
/** Joins a session peer id and a peer behind it (a client's renderer) into the sender id the Repo sees. */
const RELAYED_SEPARATOR = ">";

/** The default owner rule, the same one UserStore applies to "<handle>:<device>" ids. */
function handleOfPeer(peerId: string): string | undefined {
  // The last ':' as in users.ts: a GitHub identity "gh:<login>" carries one itself.
  const colon = peerId.lastIndexOf(":");
  return colon > 0 ? peerId.slice(0, colon) : undefined;
}

/** The client's own peer id behind a session peer id (identity for ids that are not session ids). */
export function clientPeerIdOf(sessionId: string): string {
  const relayed = sessionId.indexOf(RELAYED_SEPARATOR);
  if (relayed >= 0) return sessionId.slice(relayed + 1);
  return sessionId.replace(SESSION_SUFFIX, "");
}

/** WebSocket close reasons are at most 123 bytes. */
function closeReason(reason: string): string {
  const bytes = Buffer.from(reason, "utf8");
  return bytes.byteLength <= 123 ? reason : bytes.subarray(0, 120).toString("utf8") + "...";
}

type OptionalHooks = "onInbound" | "onJoin" | "onLeave" | "onFastChanges" | "onLease" | "onRelayRefused" | "onWriteRefused" | "onJoined" | "onClosed" | "acceptsPresence";

export class RelayServerAdapter extends NetworkAdapter {
  readonly #options: Required<Omit<RelayServerAdapterOptions, OptionalHooks>> & Pick<RelayServerAdapterOptions, OptionalHooks>;
  readonly #connections = new Set<Connection>();
  /** By the peer id the client presented: finds the connection a new join replaces. */
  readonly #byPeer = new Map<string, Connection>();
  /** By the session peer id the Repo uses. */
  readonly #bySession = new Map<string, Connection>();
  /** Presence messages dropped because acceptsPresence refused them. */
  droppedEphemeral = 0;
  /** Sync messages checkMessage dropped without closing their socket (refused writes). */
  droppedWrites = 0;
  /** Sender ids of local peers (renderers) behind a client, bound to the core that relays their presence. */
  readonly #relayedBy = new Map<string, RelayedSender>();
  #sessionCounter = 0;
  /** Goodbyes said for cut members, numbering their ephemeral sessions. */
  #goodbyes = 0;
  #connected = false;
  #keepAlive: NodeJS.Timeout | null = null;
  #readyResolve!: () => void;
  readonly #ready = new Promise<void>((resolve) => (this.#readyResolve = resolve));

  constructor(options: RelayServerAdapterOptions = {}) {
    super();
    this.#options = {
      authorizePeer: options.authorizePeer ?? (() => true),
      checkMessage: options.checkMessage ?? (() => ({ ok: true })),
      onInbound: options.onInbound,
      onJoin: options.onJoin,
      onLeave: options.onLeave,
      onFastChanges: options.onFastChanges,
      onLease: options.onLease,
      presentMetadata: options.presentMetadata ?? ((presented) => presented),
      ownerOfPeer: options.ownerOfPeer ?? handleOfPeer,
      onRelayRefused: options.onRelayRefused,
      onWriteRefused: options.onWriteRefused,
      onJoined: options.onJoined,
      onClosed: options.onClosed,
      acceptsPresence: options.acceptsPresence,
      joinTimeoutMs: options.joinTimeoutMs ?? RELAY_JOIN_TIMEOUT_MS,
      keepAliveMs: options.keepAliveMs ?? RELAY_KEEPALIVE_MS,
      now: options.now ?? Date.now,
      maxPresenceSenders: options.maxPresenceSenders ?? RELAY_MAX_PRESENCE_SENDERS,
      maxGoodbyesPerConnection: options.maxGoodbyesPerConnection ?? RELAY_MAX_GOODBYES_PER_CONNECTION,
      presenceBufferBytes: options.presenceBufferBytes ?? RELAY_PRESENCE_BUFFER_BYTES,
      maxBufferedBytes: options.maxBufferedBytes ?? RELAY_MAX_BUFFERED_BYTES,
    };
  }

  isReady(): boolean {
    return this.#connected;
  }

  whenReady(): Promise<void> {
    return this.#ready;
  }

  connect(peerId: PeerId, peerMetadata?: PeerMetadata): void {
    this.peerId = peerId;
    this.peerMetadata = peerMetadata;
    this.#connected = true;
    this.#readyResolve();
    if (!this.#keepAlive) {
      this.#keepAlive = setInterval(() => this.#pingAll(), this.#options.keepAliveMs);
      this.#keepAlive.unref();
    }
  }

  /** Closes every socket; sockets accepted later are refused until connect() is called again. */
  disconnect(): void {
    this.#connected = false;
    if (this.#keepAlive) clearInterval(this.#keepAlive);
    this.#keepAlive = null;
    for (const conn of [...this.#connections]) this.#drop(conn, CLOSE_CODES.goingAway, "relay is disconnecting");
  }

  send(message: Message): void {
    const conn = this.#bySession.get(message.targetId);
    if (!conn || conn.closed || conn.peerId === null || conn.ws.readyState !== conn.ws.OPEN) return;
    // A socket never gets back the presence it relayed for its own local peers.
    if (message.senderId.startsWith(`${message.targetId}${RELAYED_SEPARATOR}`)) return;
    if (!this.#hasRoom(conn, message.type === "ephemeral")) return;
    // Forwarded ephemeral messages carry another session's id as sender; clients know peers by their own ids.
    const frame = { ...message, targetId: conn.peerId, senderId: clientPeerIdOf(message.senderId) };
    conn.ws.send(encodeFrame(frame as unknown as WireFrame), () => undefined);
  }

  /**
   * Whether more may be queued to `conn`, whose reader may be slower than its senders (or stalled): presence is
   * dropped past presenceBufferBytes, and a socket past maxBufferedBytes is closed, since a sync message cannot be
   * dropped without breaking the session's sync state, while a fresh session after the reconnect starts clean.
   */
  #hasRoom(conn: Connection, presence: boolean): boolean {
    const queued = conn.ws.bufferedAmount;
    if (queued > this.#options.maxBufferedBytes) {
      this.#drop(conn, CLOSE_CODES.tryAgainLater, `too far behind: more than ${this.#options.maxBufferedBytes} bytes waited to be read; reconnect`);
      return false;
    }
    return !(presence && queued > this.#options.presenceBufferBytes);
  }

  /** Takes over an authenticated socket; `address` is the remote address, for the log only. */
  accept(ws: WebSocket, identity: SocketIdentity, address?: string): void {
    const conn: Connection = {
      ws,
      identity,
      address,
      peerId: null,
      sessionId: null,
      closed: false,
      alive: true,
      joinTimer: null,
      fast: false,
      lease: false,
      refusedRelays: 0,
      refusedWrites: 0,
      spoke: new Map(),
    };
    if (!this.#connected) {
      ws.close(CLOSE_CODES.tryAgainLater, "relay is not ready; try again later");
      return;
    }
    this.#connections.add(conn);
    conn.joinTimer = setTimeout(
      () => this.#drop(conn, CLOSE_CODES.joinTimeout, "no join frame in time"),
      this.#options.joinTimeoutMs,
    );
    ws.on("pong", () => (conn.alive = true));
    ws.on("message", (data, isBinary) => this.#receive(conn, data, isBinary));
    ws.on("close", (code, reason) => this.#forget(conn, code, reason.toString("utf8")));
    // ws closes the socket itself after an error (1009 for an oversized frame); the close handler cleans up.
    ws.on("error", () => undefined);
  }

  /** Closes every connection `shouldCut` selects; returns how many. Used for revocation. */
  cutWhere(shouldCut: (identity: SocketIdentity) => boolean, code: number, reason: string): number {
    let count = 0;
    for (const conn of [...this.#connections]) {
      if (shouldCut(conn.identity)) {
        this.#sayGoodbyes(conn);
        this.#drop(conn, code, reason);
        count++;
      }
    }
    return count;
  }

  /** Closes one session's socket with a reason (a fast-path batch that turned out not to apply). */
  closeSession(sessionId: string, code: number, reason: string): void {
    const conn = this.#bySession.get(sessionId);
    if (conn) this.#drop(conn, code, reason);
  }

  get connectionCount(): number {
    return this.#connections.size;
  }

  /** Session peer ids of the connections that agreed to the change fast path. */
  *fastSessions(): Iterable<string> {
    for (const conn of this.#bySession.values()) if (conn.fast && !conn.closed) yield conn.sessionId as string;
  }

  /** Whether the session agreed to the change fast path at join. */
  isFastSession(sessionId: string): boolean {
    const conn = this.#bySession.get(sessionId);
    return conn !== undefined && conn.fast && !conn.closed;
  }

  /** Sends a fast-path batch from the relay to one session that agreed to it; false when it cannot. */
  sendFastChanges(sessionId: string, documentId: string, changes: Uint8Array[]): boolean {
    const conn = this.#bySession.get(sessionId);
    if (!conn || !conn.fast || conn.closed || conn.peerId === null || !this.peerId || conn.ws.readyState !== conn.ws.OPEN) return false;
    if (!this.#hasRoom(conn, false)) return false;
    const frame: FastChangesFrame = { type: FAST_CHANGES_TYPE, senderId: this.peerId, targetId: conn.peerId, documentId, changes };
    conn.ws.send(encodeFrame(frame), () => undefined);
    return true;
  }

  /** Whether a connection is joined with `peerId` (the id the client presented) right now. */
  hasPeer(peerId: string): boolean {
    return this.#byPeer.has(peerId);
  }

  /** The user a session peer (as the Repo knows it) authenticated as. */
  userOf(sessionId: string): string | undefined {
    // Presence relayed for a client's local peer counts as that client's own.
    const session = sessionId.split(RELAYED_SEPARATOR)[0];
    return this.#bySession.get(session)?.identity.user;
  }

  #receive(conn: Connection, data: unknown, isBinary: boolean): void {
    if (conn.closed) return;
    // Any frame proves the peer alive: under load its pong can lag behind the frames it keeps sending.
    conn.alive = true;
    if (!isBinary) {
      this.#drop(conn, CLOSE_CODES.malformed, "text frames are not part of the relay protocol");
      return;
    }
    const bytes = toBytes(data);
    const decoded = decodeFrame(bytes);
    if (!decoded.ok) {
      this.#drop(conn, CLOSE_CODES.malformed, decoded.reason);
      return;
    }
    const frame = decoded.frame;
    if (conn.peerId === null) {
      if (!isJoinFrame(frame)) {
        this.#drop(conn, CLOSE_CODES.policy, "the first frame must be a join");
        return;
      }
      this.#join(conn, frame);
      return;
    }
    if (isJoinFrame(frame)) {
      this.#drop(conn, CLOSE_CODES.policy, "already joined");
      return;
    }
    let relayedSender: string | null = null;
    if (frame.senderId !== conn.peerId) {
      if (frame.type !== "ephemeral") {
        this.#drop(conn, CLOSE_CODES.policy, "senderId differs from the joined peer id");
        return;
      }
      const verdict = this.#relayVerdict(conn, frame.senderId);
      if (verdict !== "relay") {
        if (verdict !== "echo") this.#refuseRelay(conn, verdict.refused);
        return;
      }
      relayedSender = frame.senderId;
    }
    const repoFrame = frame as RepoFrame;
    if (repoFrame.targetId !== this.peerId) {
      this.#drop(conn, CLOSE_CODES.policy, "messages may only be addressed to the relay");
      return;
    }
    if (isFastChangesFrame(frame)) {
      this.#receiveFast(conn, frame);
      return;
    }
    if (frame.type === LEASE_REQUEST_TYPE) {
      this.#receiveLease(conn, frame);
      return;
    }
    const verdict = this.#options.checkMessage(repoFrame, conn.identity.user);
    if (!verdict.ok) {
      if ("dropped" in verdict) this.#refuseWrite(conn, verdict.dropped);
      else this.#drop(conn, verdict.code, verdict.reason);
      return;
    }
    if (frame.type === "ephemeral" && this.#options.acceptsPresence && !this.#options.acceptsPresence(conn.sessionId as string, repoFrame.documentId)) {
      this.droppedEphemeral++;
      return;
    }
    const senderId = relayedSender === null ? (conn.sessionId as string) : `${conn.sessionId}${RELAYED_SEPARATOR}${relayedSender}`;
    if (frame.type === "ephemeral") this.#noteSpoke(conn, (frame as { documentId?: unknown }).documentId, relayedSender ?? conn.peerId!);
    const inbound = { ...repoFrame, senderId };
    try {
      this.#options.onInbound?.(inbound.senderId, inbound);
      this.emit("message", inbound as unknown as Message);
    } catch {
      // automerge-repo handles messages asynchronously; a synchronous throw here must not reach ws.
    }
  }

  #receiveLease(conn: Connection, frame: WireFrame): void {
    const handler = this.#options.onLease;
    if (!conn.lease || !handler) {
      this.#drop(conn, CLOSE_CODES.policy, "lease frames were not agreed on this connection");
      return;
    }
    const parsed = leaseRequestFrameSchema.safeParse(frame);
    if (!parsed.success) {
      this.#drop(conn, CLOSE_CODES.malformed, "lease frame does not fit its schema");
      return;
    }
    try {
      handler(conn.sessionId as string, { user: conn.identity.user, peerId: conn.peerId as string }, parsed.data);
    } catch {
      // A handler's failure is its own to answer; the connection stays.
    }
  }

  /** Sends a lease answer or push to one session that agreed to the feature; false when it cannot. */
  sendLease(sessionId: string, frame: Omit<LeaseStateFrame, "type" | "senderId" | "targetId">): boolean {
    const conn = this.#bySession.get(sessionId);
    if (!conn || !conn.lease || conn.closed || conn.peerId === null || !this.peerId || conn.ws.readyState !== conn.ws.OPEN) return false;
    conn.ws.send(encodeFrame({ type: LEASE_STATE_TYPE, senderId: this.peerId, targetId: conn.peerId, ...frame } as unknown as WireFrame), () => undefined);
    return true;
  }

  #receiveFast(conn: Connection, frame: FastChangesFrame): void {
    const handler = this.#options.onFastChanges;
    if (!conn.fast || !handler) {
      this.#drop(conn, CLOSE_CODES.policy, "changes frames were not agreed on this connection");
      return;
    }
    if (batchBytes(frame.changes) > FAST_PATH_MAX_BYTES) {
      this.#drop(conn, CLOSE_CODES.policy, `changes frame above ${FAST_PATH_MAX_BYTES} bytes`);
      return;
    }
    const inbound: FastChangesFrame = { ...frame, senderId: conn.sessionId as string };
    let verdict: GuardVerdict;
    try {
      this.#options.onInbound?.(inbound.senderId, inbound as unknown as RepoFrame);
      verdict = handler(inbound.senderId, inbound);
    } catch {
      verdict = { ok: true };
    }
    if (!verdict.ok) this.#drop(conn, verdict.code, verdict.reason);
  }

  #join(conn: Connection, frame: JoinFrame): void {
    const peerId = frame.senderId;
    const { user } = conn.identity;
    if (!this.#connected || !this.peerId) {
      this.#drop(conn, CLOSE_CODES.tryAgainLater, "relay is not ready; try again later");
      return;
    }
    if (!frame.supportedProtocolVersions.includes(RELAY_PROTOCOL_VERSION)) {
      this.#refuse(conn, peerId, CLOSE_CODES.policy, "unsupported protocol version");
      return;
    }
    // The relay's own marks in an id would make it read as another session's ("bob#s2>x" as bob's): userOf and
    // clientPeerIdOf split at them.
    if (peerId.includes(RELAYED_SEPARATOR) || SESSION_SUFFIX.test(peerId)) {
      this.#refuse(conn, peerId, CLOSE_CODES.peerRefused, `peer id "${peerId}" may not contain "${RELAYED_SEPARATOR}" or end in "#s<number>": the relay marks its sessions so`);
      return;
    }
    let allowed: boolean | PeerRefusal = false;
    try {
      allowed = peerId !== this.peerId && this.#options.authorizePeer(user, peerId);
    } catch {
      allowed = false;
    }
    if (allowed !== true) {
      const refusal = allowed || { code: CLOSE_CODES.peerRefused, reason: `peer id "${peerId}" does not belong to user "${user}"` };
      this.#refuse(conn, peerId, refusal.code, refusal.reason);
      return;
    }
    const previous = this.#byPeer.get(peerId);
    if (previous && previous.identity.user !== user) {
      this.#refuse(conn, peerId, CLOSE_CODES.peerRefused, `peer id "${peerId}" is in use by another user`);
      return;
    }
    if (previous) this.#drop(previous, CLOSE_CODES.replaced, "replaced by a newer connection of the same peer");
    if (conn.joinTimer) clearTimeout(conn.joinTimer);
    conn.joinTimer = null;
    conn.peerId = peerId;
    conn.sessionId = `${peerId}#s${++this.#sessionCounter}`;
    conn.fast = this.#options.onFastChanges !== undefined && hasFeature(frame, FEATURE_FAST_CHANGES);
    conn.lease = this.#options.onLease !== undefined && hasFeature(frame, FEATURE_PLANNER_LEASE);
    this.#byPeer.set(peerId, conn);
    this.#bySession.set(conn.sessionId, conn);
    this.#options.onJoin?.(conn.sessionId, user);
    this.#report(() => this.#options.onJoined?.(factsOf(conn)));
    const peerMetadata = this.#options.presentMetadata(frame.peerMetadata as PeerMetadata);
    this.emit("peer-candidate", { peerId: conn.sessionId as PeerId, peerMetadata });
    conn.ws.send(
      encodeFrame({
        type: "peer",
        senderId: this.peerId,
        targetId: peerId,
        peerMetadata: (this.peerMetadata ?? {}) as Record<string, unknown>,
        selectedProtocolVersion: RELAY_PROTOCOL_VERSION,
        ...(conn.fast || conn.lease ? { features: [...(conn.fast ? [FEATURE_FAST_CHANGES] : []), ...(conn.lease ? [FEATURE_PLANNER_LEASE] : [])] } : {}),
      }),
      () => undefined,
    );
  }

  /** Tells the client why in an error frame, then closes with the same reason. */
  #refuse(conn: Connection, peerId: string, code: number, reason: string): void {
    if (conn.ws.readyState === conn.ws.OPEN) {
      const frame = encodeFrame({ type: "error", senderId: this.peerId ?? "relay", targetId: peerId, message: reason });
      conn.ws.send(frame, () => undefined);
    }
    this.#drop(conn, code, reason);
  }

  #noteSpoke(conn: Connection, documentId: unknown, sender: string): void {
    if (typeof documentId !== "string") return;
    const key = `${documentId}\u0000${sender}`;
    conn.spoke.delete(key);
    conn.spoke.set(key, { documentId, sender });
    if (conn.spoke.size > this.#options.maxGoodbyesPerConnection) conn.spoke.delete(conn.spoke.keys().next().value!);
  }

  /**
   * Says goodbye, to everyone who shares each document, in the name of every presence sender `conn` relayed on it:
   * a member cut off cannot say it, and teammates would show them "here" until the heartbeat TTL. Through the Repo,
   * as if `conn` had sent it, so it reaches exactly the peers presence reaches. Call before the connection is dropped.
   */
  #sayGoodbyes(conn: Connection): void {
    if (conn.sessionId === null) return;
    for (const { documentId, sender } of conn.spoke.values()) {
      const senderId = sender === conn.peerId ? conn.sessionId : `${conn.sessionId}${RELAYED_SEPARATOR}${sender}`;
      const goodbye = presenceGoodbye({ senderId, targetId: this.peerId as string, documentId, sessionId: `relay-goodbye-${++this.#goodbyes}` });
      try {
        this.emit("message", goodbye);
      } catch {
        // as for any inbound message: nothing here may throw into the cut
      }
    }
    conn.spoke.clear();
  }

  /** Stops listening to `conn` at once and closes it; a peer that never answers is terminated shortly after. */
  #drop(conn: Connection, code: number, reason: string): void {
    if (conn.closed) return;
    this.#forget(conn, code, reason);
    try {
      conn.ws.close(code, closeReason(reason));
    } catch {
      conn.ws.terminate();
    }
    setTimeout(() => conn.ws.terminate(), RELAY_CLOSE_GRACE_MS).unref();
  }

  /** Whether `conn` may relay presence for `sender` (binding it to `conn` if so), or why not. */
  #relayVerdict(conn: Connection, sender: string): "relay" | "echo" | { refused: string } {
    if (sender.includes(RELAYED_SEPARATOR) || SESSION_SUFFIX.test(sender)) {
      return { refused: `presence sender "${sender}" has the form of a relay session id` };
    }
    if (this.#byPeer.has(sender)) return "echo";
    const now = this.#options.now();
    const bound = this.#relayedBy.get(sender);
    if (bound && now - bound.lastRelayedAt < RELAY_PRESENCE_SENDER_TTL_MS) {
      // Bound to a core, not a socket: after its socket closes, another core still cannot take the id over.
      if (bound.user !== conn.identity.user || bound.peerId !== conn.peerId) return "echo";
      bound.lastRelayedAt = now;
      // Re-entered last: the map stays ordered by last relay, so the cap below evicts the least recently relayed.
      this.#relayedBy.delete(sender);
      this.#relayedBy.set(sender, bound);
      return "relay";
    }
    if (!this.#ownsSender(conn, sender)) {
      return { refused: `presence sender "${sender}" does not belong to peer "${conn.peerId}" of user "${conn.identity.user}"` };
    }
    this.#relayedBy.delete(sender);
    // Bounded memory: ids are cheap to invent (every window load makes one), so the oldest binding makes room.
    if (this.#relayedBy.size >= this.#options.maxPresenceSenders) {
      const oldest = this.#relayedBy.keys().next().value;
      if (oldest !== undefined) this.#relayedBy.delete(oldest);
    }
    this.#relayedBy.set(sender, { user: conn.identity.user, peerId: conn.peerId as string, lastRelayedAt: now });
    return "relay";
  }

  /** Forgets sender bindings nobody relayed for RELAY_PRESENCE_SENDER_TTL_MS (they would lapse on lookup anyway). */
  #forgetLapsedSenders(): void {
    const now = this.#options.now();
    for (const [sender, bound] of this.#relayedBy) {
      if (now - bound.lastRelayedAt >= RELAY_PRESENCE_SENDER_TTL_MS) this.#relayedBy.delete(sender);
    }
  }

  /** Namespaced under the socket's peer id or its user's handle, or a plain id no other user owns. */
  #ownsSender(conn: Connection, sender: string): boolean {
    const { user } = conn.identity;
    // "<handle>:<device>" ids are judged by ownerOfPeer (split at the last ':'), never by prefix: a relay user named
    // "gh" must not pass for the GitHub user behind "gh:alice:<device>".
    if (sender.startsWith(`${conn.peerId}/`)) return true;
    try {
      const owner = this.#options.ownerOfPeer(sender);
      return owner === undefined || owner === user;
    } catch {
      return false;
    }
  }

  #refuseRelay(conn: Connection, reason: string): void {
    // Told once per connection: a forging client must not be able to flood the relay's log.
    if (conn.refusedRelays++ > 0) return;
    this.#report(() => this.#options.onRelayRefused?.(conn.sessionId as string, reason));
  }

  /** A write of this session dropped outside checkMessage (a fast-path batch): counted and told as checkMessage's. */
  noteDroppedWrite(sessionId: string, reason: string): void {
    const conn = this.#bySession.get(sessionId);
    if (conn) this.#refuseWrite(conn, reason);
  }

  #refuseWrite(conn: Connection, reason: string): void {
    this.droppedWrites++;
    // Told once per connection, as refused presence: a forging client must not be able to flood the relay's log.
    if (conn.refusedWrites++ > 0) return;
    this.#report(() => this.#options.onWriteRefused?.(conn.sessionId as string, reason));
  }

  #report(hook: () => void): void {
    try {
      hook();
    } catch {
      // a reporting hook cannot take the socket down
    }
  }

  /** `code` and `reason`: what the relay sent when it closes, what the client sent (or 1006) when the client does. */
  #forget(conn: Connection, code: number, reason: string): void {
    if (conn.closed) return;
    conn.closed = true;
    this.#report(() => this.#options.onClosed?.(factsOf(conn), code, reason));
    if (conn.joinTimer) clearTimeout(conn.joinTimer);
    this.#connections.delete(conn);
    if (conn.peerId !== null && this.#byPeer.get(conn.peerId) === conn) this.#byPeer.delete(conn.peerId);
    if (conn.sessionId !== null && this.#bySession.get(conn.sessionId) === conn) {
      this.#bySession.delete(conn.sessionId);
      this.#options.onLeave?.(conn.sessionId, conn.identity.user);
      this.emit("peer-disconnected", { peerId: conn.sessionId as PeerId });
    }
  }

  /** Every keepalive interval: a socket that neither answered the last ping nor sent any frame since is let go. */
  #pingAll(): void {
    this.#forgetLapsedSenders();
    for (const conn of [...this.#connections]) {
      if (!conn.alive) {
        if (conn.ws.readyState === conn.ws.OPEN) {
          // The close frame tells a peer that is merely slow why; #drop terminates it if it does not answer.
          this.#drop(conn, CLOSE_CODES.goingAway, `no pong and no frame for ${this.#options.keepAliveMs} ms`);
        } else {
          this.#forget(conn, 1006, "closed without a close handshake");
          conn.ws.terminate();
        }
        continue;
      }
      conn.alive = false;
      try {
        conn.ws.ping();
      } catch {
        // a socket closing underneath us is cleaned up by its close handler
      }
    }
  }
}

function factsOf(conn: Connection): ConnectionFacts {
  return { user: conn.identity.user, peerId: conn.peerId, address: conn.address };
}

function toBytes(data: unknown): Uint8Array {
  if (data instanceof Uint8Array) return data;
  if (Array.isArray(data)) return Buffer.concat(data as Buffer[]);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(0);
}
