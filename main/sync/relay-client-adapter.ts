/**
 * The app core's end of the relay wire: one NetworkAdapter that owns its WebSocket and reconnects it itself with
 * backoff. Written instead of automerge-repo's WebSocketClientAdapter because that one rethrows a 401 as an uncaught
 * exception (automerge.md gotcha 4), cannot send an Authorization header, and reconnecting through
 * networkSubsystem.reconnect() drops peer metadata (gotcha 5).
 *
 * What must stay true:
 * - Nothing the network or the relay does throws out of this adapter; every failure becomes a status + lastError.
 * - Each reconnect presents the peer id and metadata the Repo gave connect(); the Repo sees peer-disconnected when a
 *   socket is lost and peer-candidate when the handshake completes again.
 * - 401 at the upgrade, 4401 (revoked), 4403 (peer id refused) and 4409 (replaced) stop retrying until setToken()
 *   or connect() is called again; everything else retries between minBackoffMs and maxBackoffMs.
 * - The change fast path (fast-path-client.ts) runs only once attachRepo() gave it the Repo AND the relay's peer frame
 *   agreed to the feature; "changes" frames never reach the Repo, and a relay without the feature never gets one.
 * - No frame larger than maxMessageBytes (the relay's limit, which it enforces by closing with 1009) is ever sent: such
 *   a sync message is kept back and its document reported as 'too-large' (too-large.ts), so one huge document neither
 *   loops the connection nor holds back the others. A later message for it that fits clears the report.
 * - With qualifyPeerId, a plain Repo peer id goes on the wire as "<handle>:<device>" (wire-peer-id.ts), the handle
 *   learned from GET /v1/team before the first socket of a credential; the Repo only ever sees its own id.
 * - With mayCarry, every frame that names a document, either way (sync, request, presence, fast-path changes), is
 *   dropped unless the share decision allows that document now: a document that stops being shared stops crossing at
 *   once, whatever the Repo's synchronizers still hold. Only "doc-unavailable" (which carries nothing) passes.
 */
import { FEATURE_PLANNER_LEASE, LEASE_REQUEST_TYPE, LEASE_STATE_TYPE, leaseStateFrameSchema, type LeaseRequestFrame, type LeaseStateFrame } from "../../shared/lease-wire.js";
import { NetworkAdapter, type Message, type PeerId, type PeerMetadata, type Repo } from "@automerge/automerge-repo";
import WebSocket from "ws";
import { toErrorShape, type ErrorShape } from "../../shared/errors.js";
import { FAST_PATH_SYNC_INTERVAL_MS, MAX_RELAY_MESSAGE_BYTES, RELAY_KEEPALIVE_MS } from "../../shared/limits.js";
import { RELAY_CLIENT_SILENT_INTERVALS, RELAY_RECONNECT_MAX_MS, RELAY_RECONNECT_MIN_MS } from "../util/limits.js";
import {
  CLOSE_CODES,
  FAST_CHANGES_TYPE,
  FEATURE_FAST_CHANGES,
  RELAY_PROTOCOL_VERSION,
  decodeFrame,
  encodeFrame,
  hasFeature,
  isErrorFrame,
  isFastChangesFrame,
  isPeerFrame,
  type WireFrame,
} from "../../shared/sync-wire.js";
import { notePeerHas, syncPacing, syncWithPeerNow } from "../../shared/sync-pacing.js";
import { TypedEmitter } from "../util/typed-emitter.js";
import { ClientFastPath, type FastPathStats } from "./fast-path-client.js";
import { plainConnectError, refusalText } from "./relay-errors.js";
import { fetchTeamInfo } from "./team-info.js";
import { retryDelay } from "./retry-delay.js";
import { tooLargeError, type TooLargeDocument } from "./too-large.js";
import { namesUser, wirePeerId } from "./wire-peer-id.js";

export type RelayConnectionState = "connecting" | "connected" | "offline" | "reconnecting" | "unauthorized";

export interface RelayStatusEvent {
  state: RelayConnectionState;
  lastError: ErrorShape | null;
}

export interface RelayClientAdapterOptions {
  url: string;
  token: string;
  /** When given, connect() with any other peer id is refused: the relay binds this id to the token's user. */
  peerId?: string;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** The relay pings every RELAY_KEEPALIVE_MS; silence for RELAY_CLIENT_SILENT_INTERVALS of them means the link is dead. */
  keepAliveMs?: number;
  /** Largest frame sent or accepted; must equal the relay's limit (it closes with 1009 above it). */
  maxMessageBytes?: number;
  /**
   * Present a plain peer id as "<handle>:<device>", learning the handle from the relay (GET /v1/team), so this device
   * may sign in as another user later without meeting the relay's binding of the plain id to the first user.
   */
  qualifyPeerId?: boolean;
  /**
   * The share decision, asked for every frame that names a document, sent or received (default: every document).
   * Must be synchronous and cheap: it runs per message.
   */
  mayCarry?: (documentId: string) => boolean;
}

/** Close codes after which retrying with the same credentials and peer id cannot help. */
const TERMINAL_CLOSE: Record<number, ErrorShape> = {
  [CLOSE_CODES.revoked]: { code: "unauthorized", message: "Your access to this relay was revoked." },
  [CLOSE_CODES.peerRefused]: {
    code: "forbidden",
    message: "The relay refused this device's peer id: it belongs to another user.",
  },
  [CLOSE_CODES.replaced]: {
    code: "forbidden",
    message: "Another connection from this device replaced this one.",
  },
};

export class RelayClientAdapter extends NetworkAdapter {
  readonly statusEvents = new TypedEmitter<{ status: RelayStatusEvent }>();
  /** Batches the relay sent on the fast path and the Repo applied: the relay holds these changes. */
  readonly deliveryEvents = new TypedEmitter<{ received: { documentId: string; hashes: readonly string[] } }>();
  /**
   * Planner ownership (issue #25, shared/lease-wire.ts): the relay's answers and pushes, and whether the current
   * connection carries lease frames (told on every connect and disconnect).
   */
  readonly leaseEvents = new TypedEmitter<{ frame: LeaseStateFrame; link: { agreed: boolean } }>();
  readonly #options: Required<Omit<RelayClientAdapterOptions, "peerId" | "mayCarry">> & { peerId?: string };
  readonly #mayCarry: (documentId: string) => boolean;
  /** The relay's name for the current credential's user, once learned (qualifyPeerId). */
  #handle: string | null = null;
  #learningHandle = false;
  /** Documents whose sync message did not fit the relay's limit, in the order they were kept back. */
  readonly #tooLarge = new Map<string, TooLargeDocument>();
  #token: string;
  #state: RelayConnectionState = "offline";
  #lastError: ErrorShape | null = null;
  #socket: WebSocket | null = null;
  /** The relay's peer id on the current socket, once its handshake completed. */
  #remotePeerId: PeerId | null = null;
  readonly #relayPeers = new Set<string>();
  #wanted = false;
  #everConnected = false;
  #attempt = 0;
  #retryTimer: NodeJS.Timeout | null = null;
  /** When the retry timer fires (Date.now() ms), while one is set. */
  #retryAt: number | null = null;
  #deadTimer: NodeJS.Timeout | null = null;
  #ready = false;
  /** Whether the relay on the current socket agreed to the change fast path. */
  #fastAgreed = false;
  /** Whether the relay on the current socket agreed to lease frames. */
  #leaseAgreed = false;
  readonly #fastPath = new ClientFastPath(
    (documentId, changes) => this.#sendFastChanges(documentId, changes),
    {
      syncNow: (repo, documentId) => {
        if (this.#remotePeerId) syncWithPeerNow(repo, documentId, this.#remotePeerId);
      },
      notePeerHas: (repo, documentId, hashes) => {
        if (this.#remotePeerId) notePeerHas(repo, documentId, this.#remotePeerId, hashes);
      },
      received: (documentId, hashes) => this.deliveryEvents.emit("received", { documentId, hashes }),
      mayCarry: (documentId) => this.#mayCarry(documentId),
    },
  );
  #readyResolve!: () => void;
  readonly #readyPromise = new Promise<void>((resolve) => (this.#readyResolve = resolve));

  constructor(options: RelayClientAdapterOptions) {
    super();
    this.#options = {
      url: options.url,
      token: options.token,
      peerId: options.peerId,
      minBackoffMs: options.minBackoffMs ?? RELAY_RECONNECT_MIN_MS,
      maxBackoffMs: options.maxBackoffMs ?? RELAY_RECONNECT_MAX_MS,
      keepAliveMs: options.keepAliveMs ?? RELAY_KEEPALIVE_MS,
      maxMessageBytes: options.maxMessageBytes ?? MAX_RELAY_MESSAGE_BYTES,
      qualifyPeerId: options.qualifyPeerId ?? false,
    };
    this.#token = options.token;
    this.#mayCarry = options.mayCarry ?? (() => true);
  }

  /** Whether a frame about `documentId` of this type may cross now (the share decision; doc-unavailable carries nothing). */
  #crosses(type: string, documentId: string | undefined): boolean {
    return documentId === undefined || type === "doc-unavailable" || this.#mayCarry(documentId);
  }

  get state(): RelayConnectionState {
    return this.#state;
  }

  get lastError(): ErrorShape | null {
    return this.#lastError;
  }

  /** When the next connection attempt starts (Date.now() ms) while offline and retrying; null otherwise. */
  get nextRetryAt(): number | null {
    return this.#retryAt;
  }

  /**
   * Whether `peerId` is reached through the relay: the relay itself, or a team member whose ephemeral messages the
   * relay forwarded. Local peers (a renderer) are never in this set.
   */
  isRelayPeer(peerId: string): boolean {
    return this.#relayPeers.has(peerId);
  }

  get relayPeerIds(): string[] {
    return [...this.#relayPeers];
  }

  /** Documents kept back because their sync message exceeds the relay's limit. */
  get tooLargeDocuments(): TooLargeDocument[] {
    return [...this.#tooLarge.values()];
  }

  /** The peer id this adapter presents to the relay (the Repo's own, or "<handle>:<device>"); null until known. */
  get wirePeerId(): string | null {
    if (this.peerId === undefined) return null;
    if (!this.#qualifies()) return this.peerId;
    return this.#handle === null ? null : wirePeerId(this.#handle, this.peerId);
  }

  /**
   * Gives the change fast path the Repo this adapter serves, so fresh changes reach the relay without automerge-repo's
   * per-document sync throttle. Takes effect from the next handshake (call it before adding the adapter to the Repo's
   * network, or right after `new Repo`).
   */
  attachRepo(repo: Repo): void {
    this.#fastPath.attach(repo);
  }

  /** Stops the change fast path watching the Repo (the adapter is leaving it). */
  detachRepo(): void {
    this.#fastPath.detach();
    this.#fastAgreed = false;
    this.#paceRelay(this.#remotePeerId, false);
  }

  /** While the fast path carries every change to the relay, the sync protocol to it is only the safety net. */
  #paceRelay(remote: string | null, fast: boolean): void {
    if (remote === null || this.peerId === undefined) return;
    if (fast) syncPacing().set(this.peerId, remote, FAST_PATH_SYNC_INTERVAL_MS);
    else syncPacing().clear(this.peerId, remote);
  }

  /** Whether the current connection carries lease frames. */
  get leaseLinkActive(): boolean {
    return this.#leaseAgreed;
  }

  /** Sends a lease request on the current connection; false when it cannot (not connected, or not agreed). */
  sendLease(frame: Omit<LeaseRequestFrame, "type" | "senderId" | "targetId">): boolean {
    const socket = this.#socket;
    if (!this.#leaseAgreed || !socket || !this.#remotePeerId || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(encodeFrame({ type: LEASE_REQUEST_TYPE, senderId: this.wirePeerId as string, targetId: this.#remotePeerId, ...frame } as unknown as WireFrame), () => undefined);
    return true;
  }

  /** Whether the current connection uses the change fast path. */
  get fastPathActive(): boolean {
    return this.#fastAgreed;
  }

  get fastPathStats(): FastPathStats {
    return { ...this.#fastPath.stats };
  }

  /** Ready once the first handshake completed or the first attempt failed, so offline work never waits on the relay. */
  isReady(): boolean {
    return this.#ready;
  }

  whenReady(): Promise<void> {
    return this.#readyPromise;
  }

  connect(peerId: PeerId, peerMetadata?: PeerMetadata): void {
    if (this.#options.peerId !== undefined && peerId !== this.#options.peerId) {
      this.#wanted = false;
      this.#setState("unauthorized", {
        code: "invalid-input",
        message: `The Repo's peer id "${peerId}" differs from the relay connection's "${this.#options.peerId}".`,
      });
      this.#markReady();
      return;
    }
    this.peerId = peerId;
    // A reconnect without metadata (networkSubsystem.reconnect) keeps what the Repo first presented.
    if (peerMetadata !== undefined) this.peerMetadata = peerMetadata;
    this.#wanted = true;
    this.#attempt = 0;
    this.#clearRetry();
    if (!this.#socket) this.#open();
  }

  disconnect(): void {
    this.#wanted = false;
    this.#clearRetry();
    this.#closeSocket(1000, "client disconnecting");
    if (this.#state !== "unauthorized") this.#setState("offline", this.#lastError);
  }

  /** New credentials: leaves 'unauthorized' and connects again if the Repo wants a connection. */
  setToken(token: string): void {
    this.#token = token;
    this.#lastError = null;
    // Another credential may belong to another user.
    this.#handle = null;
    if (this.peerId === undefined) return;
    this.#closeSocket(1000, "credentials changed");
    this.#wanted = true;
    this.#attempt = 0;
    this.#clearRetry();
    this.#open();
  }

  send(message: Message): void {
    const socket = this.#socket;
    // Before the handshake or while offline, drop: the Repo re-syncs from sync state when the peer reappears.
    if (!socket || !this.#remotePeerId || socket.readyState !== WebSocket.OPEN) return;
    if (message.targetId !== this.#remotePeerId) return;
    if (!this.#crosses(message.type, message.documentId)) return;
    const wireId = this.wirePeerId as string;
    const frame = message.senderId === this.peerId ? { ...message, senderId: wireId } : message;
    let bytes: Uint8Array;
    try {
      bytes = encodeFrame(frame as unknown as WireFrame);
    } catch {
      return;
    }
    if (!this.#fits(message.documentId, bytes.byteLength)) return;
    try {
      socket.send(bytes, () => undefined);
    } catch {
      // a socket failing mid-send is handled by its close event
      return;
    }
    if (this.#fastAgreed) this.#fastPath.noteOutbound(message.type, message.documentId);
  }

  #sendFastChanges(documentId: string, changes: Uint8Array[]): boolean {
    const socket = this.#socket;
    if (!this.#fastAgreed || !socket || !this.#remotePeerId || socket.readyState !== WebSocket.OPEN) return false;
    if (!this.#mayCarry(documentId)) return false;
    try {
      const frame = { type: FAST_CHANGES_TYPE, senderId: this.wirePeerId as string, targetId: this.#remotePeerId, documentId, changes };
      const bytes = encodeFrame(frame);
      // The sync protocol carries what does not fit; its own check reports a document that cannot fit at all.
      if (bytes.byteLength > this.#options.maxMessageBytes) return false;
      socket.send(bytes, () => undefined);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Whether a frame of `bytes` for `documentId` may go to the relay. A refused one is remembered and reported rather
   * than sent: the relay would close the socket (1009) and the reconnect would send it again.
   */
  #fits(documentId: string | undefined, bytes: number): boolean {
    const key = documentId ?? "(no document)";
    if (bytes > this.#options.maxMessageBytes) {
      const known = this.#tooLarge.get(key);
      if (known?.bytes === bytes) return false;
      this.#tooLarge.set(key, { documentId: key, bytes });
      this.#setState(this.#state, tooLargeError(this.tooLargeDocuments, this.#options.maxMessageBytes));
      return false;
    }
    if (this.#tooLarge.delete(key)) {
      this.#setState(this.#state, tooLargeError(this.tooLargeDocuments, this.#options.maxMessageBytes));
    }
    return true;
  }

  #qualifies(): boolean {
    return this.#options.qualifyPeerId && this.peerId !== undefined && !namesUser(this.peerId);
  }

  /** Asks the relay whose credential this is, then opens the socket with "<handle>:<device>". */
  #learnHandle(): void {
    if (this.#learningHandle) return;
    this.#learningHandle = true;
    const token = this.#token;
    fetchTeamInfo(this.#options.url, token).then(
      (info) => {
        this.#learningHandle = false;
        if (token !== this.#token) return this.#open();
        if (this.peerId === undefined || wirePeerId(info.user, this.peerId) === null) {
          this.#lost({ code: "relay-unavailable", message: `The relay named this account "${info.user}", which cannot prefix a peer id.` });
          return;
        }
        this.#handle = info.user;
        this.#open();
      },
      (error: unknown) => {
        this.#learningHandle = false;
        if (token !== this.#token) return this.#open();
        if (!this.#wanted) return;
        const shape = toErrorShape(error);
        if (shape.code === "unauthorized") {
          this.#wanted = false;
          this.#clearRetry();
          this.#setState("unauthorized", shape);
          this.#markReady();
          return;
        }
        this.#lost(shape.code === "internal" ? { code: "relay-unavailable", message: "Cannot reach the relay." } : shape);
      },
    );
  }

  #open(): void {
    if (!this.#wanted || this.peerId === undefined) return;
    this.#setState(this.#everConnected || this.#attempt > 0 ? "reconnecting" : "connecting", this.#lastError);
    if (this.#qualifies() && this.#handle === null) {
      this.#learnHandle();
      return;
    }
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.#options.url, {
        headers: { authorization: `Bearer ${this.#token}` },
        maxPayload: this.#options.maxMessageBytes,
        handshakeTimeout: this.#options.keepAliveMs,
      });
    } catch (error) {
      this.#lastError = { code: "invalid-input", message: `The relay address cannot be used: ${describe(error)}` };
      this.#wanted = false;
      this.#setState("offline", this.#lastError);
      this.#markReady();
      return;
    }
    socket.binaryType = "nodebuffer";
    this.#socket = socket;
    let refusedStatus: number | null = null;

    socket.on("unexpected-response", (_req, res) => {
      refusedStatus = res.statusCode ?? 0;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        if (body.length < 2000) body += chunk;
      });
      res.on("error", () => undefined);
      res.on("end", () => {
        if (this.#socket !== socket) return;
        this.#socket = null;
        socket.terminate();
        if (refusedStatus === 401 || refusedStatus === 403) {
          this.#wanted = false;
          this.#clearRetry();
          this.#setState("unauthorized", {
            code: "unauthorized",
            message: reasonFromBody(body) ?? "The relay refused the token.",
            details: { status: refusedStatus },
          });
          this.#markReady();
        } else {
          this.#lost({ code: "relay-unavailable", message: refusalText(refusedStatus ?? 0, body) });
        }
      });
    });
    socket.on("open", () => {
      if (this.#socket !== socket) return;
      this.#armDeadTimer();
      socket.send(
        encodeFrame({
          type: "join",
          senderId: this.wirePeerId as string,
          peerMetadata: (this.peerMetadata ?? {}) as Record<string, unknown>,
          supportedProtocolVersions: [RELAY_PROTOCOL_VERSION],
          features: [...(this.#fastPath.attached ? [FEATURE_FAST_CHANGES] : []), FEATURE_PLANNER_LEASE],
        }),
        () => undefined,
      );
    });
    socket.on("ping", () => this.#armDeadTimer());
    socket.on("message", (data, isBinary) => {
      if (this.#socket !== socket) return;
      this.#armDeadTimer();
      this.#receive(socket, data as Buffer, isBinary);
    });
    socket.on("error", (error) => {
      if (this.#socket !== socket || refusedStatus !== null) return;
      this.#lastError = { code: "relay-unavailable", message: plainConnectError(error), details: { cause: describe(error) } };
    });
    socket.on("close", (code, reasonBuffer) => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      const reason = reasonBuffer.toString("utf8");
      const terminal = TERMINAL_CLOSE[code];
      if (terminal) {
        this.#dropRemotePeer();
        this.#wanted = false;
        this.#clearRetry();
        this.#setState("unauthorized", { ...terminal, details: { closeCode: code, reason } });
        this.#markReady();
        return;
      }
      this.#lost(
        this.#remotePeerId || code !== 1006
          ? { code: "relay-unavailable", message: `The relay connection closed (${code}${reason ? `: ${reason}` : ""}).` }
          : (this.#lastError ?? { code: "relay-unavailable", message: "Cannot reach the relay." }),
      );
    });
  }

  #receive(socket: WebSocket, data: Buffer, isBinary: boolean): void {
    const decoded = isBinary ? decodeFrame(data) : ({ ok: false, reason: "text frame" } as const);
    if (!decoded.ok) {
      socket.close(CLOSE_CODES.malformed, "malformed frame from relay");
      return;
    }
    const frame = decoded.frame;
    if (isPeerFrame(frame)) {
      this.#remotePeerId = frame.senderId as PeerId;
      this.#relayPeers.add(frame.senderId);
      this.#fastPath.reset();
      this.#fastAgreed = this.#fastPath.attached && hasFeature(frame, FEATURE_FAST_CHANGES);
      this.#leaseAgreed = hasFeature(frame, FEATURE_PLANNER_LEASE);
      this.#paceRelay(frame.senderId, this.#fastAgreed);
      this.#everConnected = true;
      this.#attempt = 0;
      this.#setState("connected", tooLargeError(this.tooLargeDocuments, this.#options.maxMessageBytes));
      this.#markReady();
      this.emit("peer-candidate", {
        peerId: frame.senderId as PeerId,
        peerMetadata: frame.peerMetadata as PeerMetadata,
      });
      this.leaseEvents.emit("link", { agreed: this.#leaseAgreed });
      return;
    }
    if (isErrorFrame(frame)) {
      this.#lastError = { code: "relay-unavailable", message: frame.message };
      return;
    }
    if (!this.#remotePeerId) return;
    if (!this.#crosses(frame.type, "documentId" in frame && typeof frame.documentId === "string" ? frame.documentId : undefined)) return;
    if (isFastChangesFrame(frame)) {
      if (this.#fastAgreed && frame.senderId === this.#remotePeerId) this.#fastPath.receive(frame.documentId, frame.changes);
      return;
    }
    if (frame.type === LEASE_STATE_TYPE) {
      const lease = leaseStateFrameSchema.safeParse(frame);
      if (this.#leaseAgreed && frame.senderId === this.#remotePeerId && lease.success) this.leaseEvents.emit("frame", lease.data);
      return;
    }
    if (frame.senderId !== this.#remotePeerId) {
      // The relay forwards other members' ephemeral messages (presence) under their own peer ids; nothing else.
      if (frame.type !== "ephemeral") return;
      this.#relayPeers.add(frame.senderId);
    }
    // The relay addresses this device by its wire id; the Repo knows itself by its own.
    const toRepo = "targetId" in frame && frame.targetId === this.wirePeerId ? { ...frame, targetId: this.peerId } : frame;
    this.emit("message", toRepo as unknown as Message);
  }

  /** The socket is gone for a reason retrying may fix. */
  #lost(error: ErrorShape): void {
    this.#dropRemotePeer();
    this.#lastError = error;
    this.#markReady();
    if (!this.#wanted) {
      this.#setState("offline", error);
      return;
    }
    const delay = retryDelay(this.#attempt, Math.random(), this.#options.minBackoffMs, this.#options.maxBackoffMs);
    this.#attempt++;
    this.#clearRetry();
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      this.#retryAt = null;
      this.#open();
    }, delay);
    this.#retryTimer.unref?.();
    // Known before the status goes out, so "offline" can say when the next attempt comes.
    this.#retryAt = Date.now() + delay;
    this.#setState("offline", error);
  }

  #dropRemotePeer(): void {
    if (this.#deadTimer) clearTimeout(this.#deadTimer);
    this.#deadTimer = null;
    const remote = this.#remotePeerId;
    this.#remotePeerId = null;
    this.#fastAgreed = false;
    if (this.#leaseAgreed) {
      this.#leaseAgreed = false;
      this.leaseEvents.emit("link", { agreed: false });
    }
    this.#fastPath.reset();
    this.#paceRelay(remote, false);
    if (remote) this.emit("peer-disconnected", { peerId: remote });
  }

  #closeSocket(code: number, reason: string): void {
    const socket = this.#socket;
    this.#socket = null;
    this.#dropRemotePeer();
    if (!socket) return;
    try {
      if (socket.readyState === WebSocket.OPEN) socket.close(code, reason);
      else socket.terminate();
    } catch {
      // already closing
    }
  }

  #armDeadTimer(): void {
    if (this.#deadTimer) clearTimeout(this.#deadTimer);
    this.#deadTimer = setTimeout(() => {
      const socket = this.#socket;
      if (socket) socket.terminate();
    }, this.#options.keepAliveMs * RELAY_CLIENT_SILENT_INTERVALS);
    this.#deadTimer.unref?.();
  }

  #clearRetry(): void {
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    this.#retryAt = null;
  }

  #markReady(): void {
    if (this.#ready) return;
    this.#ready = true;
    this.#readyResolve();
  }

  #setState(state: RelayConnectionState, lastError: ErrorShape | null): void {
    const changed = state !== this.#state || lastError !== this.#lastError;
    this.#state = state;
    this.#lastError = lastError;
    if (changed) this.statusEvents.emit("status", { state, lastError });
  }
}

function describe(error: unknown): string {
  if (error && typeof error === "object" && "code" in error && typeof (error as { code: unknown }).code === "string") {
    return `${(error as { code: string }).code} ${(error as unknown as Error).message ?? ""}`.trim();
  }
  return error instanceof Error ? error.message : String(error);
}

function reasonFromBody(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    return typeof parsed.message === "string" ? parsed.message : null;
  } catch {
    return body.trim() ? body.trim().slice(0, 200) : null;
  }
}
