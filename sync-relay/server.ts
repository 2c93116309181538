/**
 * startRelay: the relay process in one call, used by the CLI, the tests and the benches alike. An HTTP server whose
 * upgrade handler authenticates the bearer token before any WebSocket exists; one RelayServerAdapter; one Repo over
 * SQLite storage whose shareConfig announces to each peer exactly the documents that peer has sent sync messages for
 * and whose access goes through the single access() hook. Together with one fresh session peer per connection and no
 * persisted per-client sync state, this is what keeps reconnecting clients from looping (automerge.md gotcha 1).
 * Clients that ask for it also get the change fast path (fast-path.ts): fresh changes are applied and forwarded at
 * once, under the same access() and PeerInterest rules, because automerge-repo's sync is throttled per document.
 *
 * What must stay true:
 * - A wrong or missing token gets a 401 with a reason at the upgrade; nothing a client sends crashes the process.
 * - With `github` set, a GitHub user token is admitted too (authenticate.ts): 403 not admitted, 503 while GitHub cannot
 *   answer (fail closed, live sockets stay); live GitHub sockets are re-verified and cut (4401) on lost admission.
 * - A user revoked from another process loses its sockets within RELAY_REVOCATION_BOUND_MS (poll every userPollMs).
 * - Idle documents leave memory (flushed first); close() flushes everything and closes the database last.
 * - The port is bound before the data folder is touched: a port in use fails startup with nothing created. Until
 *   setup is done, HTTP requests and upgrades get a 503 "starting" (never a hang).
 * - The log names every joined and closed connection (user, peer id, remote address, close code and reason) and the
 *   handles a revocation cut; never a token.
 * - A plain peer id stays bound to its user while a connection holds it; past RELAY_MAX_PEER_BINDINGS_PER_USER the
 *   user's least recently used idle binding is forgotten, and with all of them live the join is refused 1013
 *   (peer-bindings.ts). Each join and leave counts as a use.
 * - A document the relay does not have costs it a handle only until it has answered "doc-unavailable", and a session
 *   asks for at most RELAY_MAX_UNAVAILABLE_DOCS_PER_SESSION of them (unavailable-requests.ts).
 * - A change to a registered agent chat's plan or conversation from any user but its person (for a GitHub chat, that
 *   sign-in and the relay-token users linked to it: token-links.ts) is dropped, by sync message and by fast-path batch alike, before the Repo or the fast path sees it (chat-write-guard.ts).
 * - One relay per data folder (data-lock.ts); a sync message never shows heads that are not stored, and a failed save
 *   is logged and retried, never fatal (durable-acks.ts); unreadable stored chunks are moved aside (corrupt-chunks.ts).
 */
import { PlannerLeaseService } from "../shared/node/planner-lease-service.js";
import { AgentChatTable } from "../shared/node/agent-chat-table.js";
import { AgentStarsOwners } from "./agent-stars-owners.js";
import { ChatWriteGuard, holdsAll } from "./chat-write-guard.js";
import { RelayTokenLinks } from "./token-links.js";
import { fencedTargetOf } from "../shared/node/fenced-write-target.js";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { join } from "node:path";
import { isValidDocumentId, Repo, type DocHandle, type DocumentId, type PeerId } from "@automerge/automerge-repo";
import type Database from "better-sqlite3";
import { WebSocketServer, type WebSocket } from "ws";
import { FAST_PATH_SYNC_INTERVAL_MS, MAX_RELAY_MESSAGE_BYTES, RELAY_JOIN_TIMEOUT_MS, RELAY_KEEPALIVE_MS } from "../shared/limits.js";
import { RELAY_EVICT_SWEEP_MS, RELAY_IDLE_EVICT_MS, RELAY_MAX_UNAVAILABLE_DOCS_PER_SESSION, RELAY_DELETED_DOCUMENT_GRACE_MS, RELAY_DELETED_SWEEP_MS, RELAY_SAVE_DEBOUNCE_MS, RELAY_USER_POLL_MS, RELAY_REVOCATION_BOUND_MS } from "./limits.js";
import { ClosableStorage } from "../shared/closable-storage.js";
import { SqliteStorageAdapter } from "../shared/node/sqlite-storage-adapter.js";
import { notePeerHas, syncPacing, syncWithPeerNow } from "../shared/sync-pacing.js";
import { CLOSE_CODES, type RepoFrame } from "../shared/sync-wire.js";
import { teamAccess, type AccessDecision } from "./access.js";
import { isGitHubIdentity, startRelayAuth, type RelayGitHubOptions } from "./authenticate.js";
import { createRefusalLog } from "./refusal-log.js";
import { DocumentEvictor } from "./eviction.js";
import { RelayFastPath } from "./fast-path.js";
import { bearerToken, handleHttp } from "./http-routes.js";
import { checkRepoMessage } from "./message-guard.js";
import { PeerInterest } from "./peer-interest.js";
import { quarantineUnreadableChunks } from "./corrupt-chunks.js";
import { lockDataFolder, type DataLock } from "./data-lock.js";
import { DurableAcks } from "./durable-acks.js";
import { DeletedDocuments } from "./deleted-documents.js";
import { purgeDeleted } from "./deleted-purge.js";
import { watchTeamDeletions } from "./team-deletions.js";
import { RELAY_DB_FILE, openRelayDb } from "./relay-db.js";
import { RelayServerAdapter, clientPeerIdOf, type ConnectionFacts } from "./server-adapter.js";
import { ensureTeamIndex } from "./team.js";
import { UnavailableRequests } from "./unavailable-requests.js";
import { UserStore } from "./users.js";

export const RELAY_PEER_ID = "chopin-relay";


/**
 * ws closes a socket that sent a frame above maxPayload itself, with 1009 and no reason. The reason is the one thing a
 * client (and the relay's log of who left, and why) learns from, so this socket's close gets one when ws gives none.
 */
function sayWhyTooBig(ws: WebSocket, maxMessageBytes: number): void {
  const close = ws.close.bind(ws);
  ws.close = (code?: number, reason?: string | Buffer) =>
    close(code, code === CLOSE_CODES.tooBig && !reason ? `message larger than ${maxMessageBytes} bytes, the most this relay takes` : reason);
}

export interface RelayOptions {
  dataDir: string;
  /** 0 picks a free port. Default 0. */
  port?: number;
  /** Default 127.0.0.1; a hosted relay passes 0.0.0.0. */
  host?: string;
  idleEvictMs?: number;
  evictSweepMs?: number;
  userPollMs?: number;
  maxMessageBytes?: number;
  joinTimeoutMs?: number;
  keepAliveMs?: number;
  access?: AccessDecision;
  peerId?: string;
  log?: (line: string) => void;
  /** The change fast path (fast-path.ts) for clients that ask for it. Default true; false measures the sync path alone. */
  fastPath?: boolean;
  /** Also admit GitHub user tokens (issue #3). Absent: relay tokens only. */
  github?: RelayGitHubOptions;
  /** Distinct documents a session may ask for that the relay does not have. Default RELAY_MAX_UNAVAILABLE_DOCS_PER_SESSION. */
  maxUnavailableDocs?: number;
  /** Presence pairs remembered per connection for goodbyes when a member is cut. Default RELAY_MAX_GOODBYES_PER_CONNECTION. */
  maxGoodbyesPerConnection?: number;
  /** Queued bytes past which presence to a socket is dropped (RELAY_PRESENCE_BUFFER_BYTES); tests lower it. */
  presenceBufferBytes?: number;
  /** Queued bytes past which a socket is closed 1013 (RELAY_MAX_BUFFERED_BYTES); tests lower it. */
  maxBufferedBytes?: number;
  /** Plain peer ids bound to one user at most (peer-bindings.ts). Default RELAY_MAX_PEER_BINDINGS_PER_USER. */
  maxPeerBindingsPerUser?: number;
  /** Also take a token as ?token= (tools that cannot set headers); off by default, as addresses reach proxies' logs. */
  allowQueryToken?: boolean;
  /** How long a plan deleted from the team's list keeps its stored data (RELAY_DELETED_DOCUMENT_GRACE_MS); tests lower it. */
  deletedGraceMs?: number;
  /** How long a Planner lease lasts after a claim or renewal (PLANNER_LEASE_TTL_MS); tests shorten it. */
  leaseTtlMs?: number;
  /** The clock leases expire by (default Date.now); tests move it instead of waiting. */
  leaseNow?: () => number;
  /** How often deleted plans past their grace are purged (RELAY_DELETED_SWEEP_MS). */
  deletedSweepMs?: number;
  /**
   * Hears every frame a member sends that reached the relay (after the wire checks, before any access decision), with
   * the member's user: a sync message's `data`, a fast-path frame's `changes`.
   */
  onFrame?: (user: string, frame: RepoFrame) => void;
}

export interface RunningRelay {
  /** ws://host:port/ */
  url: string;
  /** http://host:port */
  httpUrl: string;
  port: number;
  repo: Repo;
  users: UserStore;
  db: Database.Database;
  dbFile: string;
  teamIndexDocumentId: DocumentId;
  adapter: RelayServerAdapter;
  evictor: DocumentEvictor;
  /** The change fast path's relay half (stats for tests and health). */
  fastPath: RelayFastPath;
  /** Requests for documents the relay does not have (stats for tests). */
  unavailable: UnavailableRequests;
  /** Plans deleted from the team's list: refused to every member, purged after the grace. */
  deleted: DeletedDocuments;
  /** Who runs the Planner in each channel (issue #25). */
  leases: PlannerLeaseService;
  /** Which documents are agent chats and who may change them (`refused` counts the writes dropped). */
  chatWrites: ChatWriteGuard;
  /** Purges deleted plans whose grace has passed now (the sweep does it on its own); resolves with the ids purged. */
  purgeDeleted(): Promise<string[]>;
  httpServer: Server;
  loadedDocuments(): number;
  connections(): number;
  /** Re-reads the users table and cuts revoked credentials now; returns sockets cut. */
  pollUsers(): number;
  /** Re-verifies live GitHub-admitted sockets now; resolves with the number of tokens cut off. */
  reverifyGitHub(): Promise<number>;
  close(): Promise<void>;
}

/** The relay's timers: each option when given, else its bound from shared/limits.ts (tests shorten them). */
export function relayTimings(options: RelayOptions): Required<Pick<RelayOptions, "idleEvictMs" | "evictSweepMs" | "userPollMs" | "joinTimeoutMs" | "keepAliveMs">> {
  return {
    idleEvictMs: options.idleEvictMs ?? RELAY_IDLE_EVICT_MS,
    evictSweepMs: options.evictSweepMs ?? RELAY_EVICT_SWEEP_MS,
    userPollMs: options.userPollMs ?? RELAY_USER_POLL_MS,
    joinTimeoutMs: options.joinTimeoutMs ?? RELAY_JOIN_TIMEOUT_MS,
    keepAliveMs: options.keepAliveMs ?? RELAY_KEEPALIVE_MS,
  };
}

export async function startRelay(options: RelayOptions): Promise<RunningRelay> {
  const timings = relayTimings(options);
  const log = options.log ?? (() => undefined);
  const host = options.host ?? "127.0.0.1";
  const relayPeerId = options.peerId ?? RELAY_PEER_ID;

  // Replaced once setup is done; until then every request is told the relay is starting.
  let serveHttp = (_req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(503, { "content-type": "application/json; charset=utf-8", "retry-after": "1" });
    res.end(JSON.stringify({ code: "relay-unavailable", message: STARTING }));
  };
  let serveUpgrade = (_req: IncomingMessage, socket: Duplex, _head: Buffer): void =>
    refuseUpgrade(socket, 503, "relay-unavailable", STARTING);
  const server: Server = createServer((req, res) => serveHttp(req, res));
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => undefined);
    serveUpgrade(req, socket, head);
  });
  server.on("clientError", (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  let db: Database.Database | undefined;
  let lock: DataLock | undefined;
  try {
    lock = lockDataFolder(options.dataDir);
    db = openRelayDb(options.dataDir);
    const relay = await serve(options, { server, db, lock, host, log, relayPeerId, timings });
    serveHttp = relay.serveHttp;
    serveUpgrade = relay.serveUpgrade;
    return relay.running;
  } catch (error) {
    server.closeAllConnections();
    server.close();
    db?.close();
    lock?.release();
    throw error;
  }
}

const STARTING = "The relay is starting; try again in a moment.";

interface Bound {
  server: Server;
  db: Database.Database;
  lock: DataLock;
  host: string;
  log: (line: string) => void;
  relayPeerId: string;
  timings: ReturnType<typeof relayTimings>;
}

/** Everything after the port is bound: the database, the Repo, authentication, and the handlers that go live last. */
async function serve(
  options: RelayOptions,
  { server, db, lock, host, log, relayPeerId, timings }: Bound,
): Promise<{ running: RunningRelay; serveHttp: (req: IncomingMessage, res: ServerResponse) => void; serveUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void }> {
  const deleted = new DeletedDocuments(db);
  const memberAccess = options.access ?? teamAccess;
  // A plan deleted from the team's list is refused to everyone, before any other rule is asked.
  const access: AccessDecision = (user, documentId) => !deleted.has(documentId) && memberAccess(user, documentId);
  const users = new UserStore(db, { maxPerUser: options.maxPeerBindingsPerUser });
  const storage = new SqliteStorageAdapter(db, { durability: "process-crash" });
  // automerge-repo's throttled saves fire after shutdown; closing this first keeps them off the closed database.
  const closableStorage = new ClosableStorage(storage);
  const interest = new PeerInterest();
  // Set below once the Repo exists; inbound messages cannot arrive before the adapter is connected by the Repo.
  let evictor: DocumentEvictor | null = null;
  let fastPath: RelayFastPath | null = null;
  let unavailable: UnavailableRequests | null = null;
  let durableAcks: DurableAcks | null = null;
  // Set once the team's index is known, before any socket is accepted (serveUpgrade goes live last).
  let chatWrites: ChatWriteGuard | null = null;
  // Changes to a chat the relay already holds write nothing: a teammate's app offering them back is let through.
  const relayHolds = (documentId: string, changes: readonly Uint8Array[]) => {
    const handle = repo.handles[documentId as DocumentId] as DocHandle<unknown> | undefined;
    return handle?.isReady() === true && holdsAll(handle.doc(), changes);
  };

  // Planner ownership (issue #25): the lease table and its frames; told of each connection that leaves.
  let leases: PlannerLeaseService | null = null;
  const adapter = new RelayServerAdapter({
    authorizePeer: (user, peerId) => {
      let claim: ReturnType<UserStore["claimPeer"]>;
      try {
        claim = users.claimPeer(user, peerId, (id) => adapter.hasPeer(id));
      } catch (error) {
        // The binding could not be written (a full or read-only disk): not the member's fault, and it may lift.
        log(`could not bind peer ${printable(peerId)} of ${user}: ${String(error)}`);
        return { code: CLOSE_CODES.tryAgainLater, reason: "the relay cannot write to its database right now; try again later" };
      }
      if (claim.ok) return true;
      // All of the user's bindings are live: joining may work once one of those connections closes.
      return claim.why === "all-in-use" ? { code: CLOSE_CODES.tryAgainLater, reason: claim.reason } : false;
    },
    // A message's changes are judged only for a registered chat's documents, from the one decode the check makes.
    checkMessage: (frame, user) => checkRepoMessage(frame, (documentId, changes) => chatWrites?.refusesWrite(user, documentId, () => relayHolds(documentId, changes)) ?? false),
    onWriteRefused: (sessionId, reason) => log(`dropped a write from ${printable(sessionId)}: ${printable(reason)} (later ones on this connection are counted, not logged)`),
    // Presence only for a document this connection syncs here or the relay holds open: the Repo makes a handle for any
    // id a message names, and presence is never answered "doc-unavailable", so the request limit would not see a flood
    // of presence for random ids (each handle kept until eviction).
    acceptsPresence: (sessionId, documentId): boolean =>
      !(documentId !== undefined && deleted.has(documentId)) &&
      (interest.has(sessionId, documentId) || (documentId !== undefined && repo.handles[documentId as DocumentId] !== undefined)),
    onInbound: (peerId, frame) => {
      const user = options.onFrame ? adapter.userOf(peerId) : undefined;
      if (user !== undefined) options.onFrame!(user, frame);
      if (!frame.documentId) return;
      evictor?.touch(frame.documentId);
      if (frame.type === "sync" || frame.type === "request") {
        interest.record(peerId, frame.documentId);
        if (adapter.isFastSession(peerId)) {
          fastPath?.watch(frame.documentId);
          // With the copy current, taking in this message drops the fast-path notes its heads cover (fast-path.ts).
          fastPath?.applyNow(frame.documentId);
        }
      }
    },
    // A session on the fast path gets every change at once, so the sync protocol to it is only the safety net.
    onJoin: (sessionId) => {
      if (fastPath && adapter.isFastSession(sessionId)) syncPacing().set(relayPeerId, sessionId, FAST_PATH_SYNC_INTERVAL_MS);
    },
    // The change fast path (fast-path.ts): fresh changes cross the relay without automerge-repo's sync throttle.
    onFastChanges:
      options.fastPath === false
        ? undefined
        : (sessionId, frame) => {
            // Before the fast path, which forwards a batch on arrival: a refused write reaches no one.
            if (frame.changes.length > 0 && chatWrites?.refusesWrite(adapter.userOf(sessionId), frame.documentId, () => relayHolds(frame.documentId, frame.changes))) {
              adapter.noteDroppedWrite(sessionId, `changes to ${frame.documentId}, a chat only its person writes`);
              return { ok: true };
            }
            const verdict = fastPath?.receive(sessionId, frame) ?? { ok: true };
            // The team's list at once, not at the next timed apply: an entry leaving it is a deletion the relay must
            // record (team-deletions.ts) as soon as members hear of it.
            if (frame.documentId === teamIndexId) fastPath?.applyNow(frame.documentId);
            return verdict;
          },
    onLease: (sessionId, identity, frame) => void leases?.handle(sessionId, identity, frame),
    onLeave: (sessionId) => {
      leases?.left(sessionId);
      try {
        users.leftPeer(clientPeerIdOf(sessionId));
      } catch (error) {
        log(`could not note when peer ${printable(clientPeerIdOf(sessionId))} left: ${String(error)}`);
      }
      interest.forget(sessionId);
      unavailable?.forget(sessionId);
      durableAcks?.sessionLeft(sessionId);
      syncPacing().clear(relayPeerId, sessionId);
      delete repo.peerMetadataByPeerId[sessionId as PeerId];
    },
    // No storageId: the relay keeps no per-client sync state on disk, so every session starts from a clean state.
    presentMetadata: () => ({ isEphemeral: true }),
    ownerOfPeer: (peerId) => users.ownerOfPeer(peerId),
    onRelayRefused: (sessionId, reason) => log(`dropped presence from ${printable(sessionId)}: ${printable(reason)}`),
    onJoined: (facts) => log(`joined: ${describeConnection(facts)}`),
    onClosed: (facts, code, reason) => log(`left: ${describeConnection(facts)} (${code}${reason ? ` ${printable(reason)}` : ""})`),
    joinTimeoutMs: timings.joinTimeoutMs,
    keepAliveMs: timings.keepAliveMs,
    ...(options.maxGoodbyesPerConnection === undefined ? {} : { maxGoodbyesPerConnection: options.maxGoodbyesPerConnection }),
    ...(options.presenceBufferBytes === undefined ? {} : { presenceBufferBytes: options.presenceBufferBytes }),
    ...(options.maxBufferedBytes === undefined ? {} : { maxBufferedBytes: options.maxBufferedBytes }),
  });

  leases = new PlannerLeaseService({
    db,
    // A channel is a plan this user may sync now: a valid document id the relay's access decision (deletions first) allows.
    mayUse: (user, channelId) => isValidDocumentId(channelId) && access(user, channelId),
    send: (sessionId, frame) => adapter.sendLease(sessionId, frame),
    // The relay's own copy, from memory or its storage; a document it never received is refused, not fetched.
    fencedTarget: async (documentId) => {
      // Changes forwarded on arrival but not yet applied here may be what the write depends on.
      await fastPath?.applyPending(documentId);
      const known = repo.handles[documentId as DocumentId] as DocHandle<unknown> | undefined;
      if (known?.isReady()) return fencedTargetOf(repo, known);
      if (!storage.holds([documentId])) return "missing-dependencies";
      return fencedTargetOf(repo, (await repo.find(documentId as DocumentId)) as DocHandle<unknown>);
    },
    ...(options.leaseTtlMs === undefined ? {} : { ttlMs: options.leaseTtlMs }),
    ...(options.leaseNow === undefined ? {} : { now: options.leaseNow }),
    log,
  });
  const repo = new Repo({
    // Saving is what a relay does most under load; every client holds the changes too and sends them again on its
    // next sync, so the relay saves each busy document at most this often (close() and eviction flush first).
    saveDebounceRate: RELAY_SAVE_DEBOUNCE_MS,
    storage: closableStorage,
    network: [adapter],
    peerId: relayPeerId as PeerId,
    shareConfig: {
      announce: async (peerId, documentId) => interest.has(peerId, documentId),
      access: async (peerId, documentId) => {
        const user = adapter.userOf(peerId);
        return user !== undefined && (await access(user, documentId));
      },
    },
  });
  // Unreadable stored chunks are moved aside instead of leaving their document loading forever (corrupt-chunks.ts).
  quarantineUnreadableChunks({ repo, db, storage, log });
  // Every message the Repo sends passes here first: an acknowledgement leaves only once its heads are stored, and a
  // failed save is logged and retried instead of killing the relay (durable-acks.ts). The adapter's own send delivers.
  const deliver = adapter.send.bind(adapter);
  const acks = new DurableAcks({
    repo,
    send: deliver,
    refuse: (sessionId, reason) => adapter.closeSession(sessionId, CLOSE_CODES.tryAgainLater, reason),
    log,
  });
  durableAcks = acks;
  adapter.send = (message) => acks.send(message);
  fastPath = new RelayFastPath({
    repo,
    interest,
    access,
    userOf: (sessionId) => adapter.userOf(sessionId),
    fastSessions: () => adapter.fastSessions(),
    isFastSession: (sessionId) => adapter.isFastSession(sessionId),
    send: (sessionId, documentId, changes) => adapter.sendFastChanges(sessionId, documentId, changes),
    syncNow: (sessionId, documentId) => void syncWithPeerNow(repo, documentId, sessionId),
    notePeerHas: (sessionId, documentId, hashes) => notePeerHas(repo, documentId, sessionId, hashes),
    refuse: (sessionId, code, reason) => adapter.closeSession(sessionId, code, reason),
  });
  // The first message of a session about a document can arrive before the Repo has a handle for it; any sync message
  // the relay sends a fast session proves the handle exists, so watching starts there at the latest.
  repo.synchronizer.on("message", (message) => {
    if ("documentId" in message && message.documentId && adapter.isFastSession(message.targetId)) fastPath?.watch(message.documentId);
    unavailable?.noteOutbound(message);
  });
  unavailable = new UnavailableRequests({
    repo,
    limit: options.maxUnavailableDocs ?? RELAY_MAX_UNAVAILABLE_DOCS_PER_SESSION,
    refuse: (sessionId, reason) => adapter.closeSession(sessionId, CLOSE_CODES.policy, reason),
  });
  // Known once ensureTeamIndex ran; the team index stays loaded (team-deletions.ts listens to it).
  let teamIndexId: string | null = null;
  evictor = new DocumentEvictor(repo, {
    idleMs: timings.idleEvictMs,
    sweepMs: timings.evictSweepMs,
    canUnload: (documentId) => documentId !== teamIndexId && acks.settled(documentId),
    onUnloaded: (documentId) => acks.forget(documentId),
  });
  const teamIndexDocumentId = await ensureTeamIndex(db, repo);
  teamIndexId = teamIndexDocumentId;
  // Entries that leave the team's list are deletions: refused from now on (access above), purged after the grace.
  const teamDeletions = await watchTeamDeletions({
    repo,
    teamIndexDocumentId,
    deleted,
    // Stops every sync of those plans now: the synchronizers ask access() again and end the ones refused.
    onDeleted: () => repo.shareConfigChanged(),
    log,
  });
  const purge = () =>
    purgeDeleted({ repo, storage: closableStorage, deleted, graceMs: options.deletedGraceMs ?? RELAY_DELETED_DOCUMENT_GRACE_MS, log });
  void purge();
  const purgeSweep = setInterval(() => void purge(), options.deletedSweepMs ?? RELAY_DELETED_SWEEP_MS);
  purgeSweep.unref();

  const auth = startRelayAuth({
    users,
    github: options.github,
    cut: (tokenHash, code, reason) => adapter.cutWhere((identity) => identity.tokenHash === tokenHash, code, reason),
    log,
  });
  const refusals = createRefusalLog(log);
  const agentChats = new AgentChatTable(db);
  const tokenLinks = new RelayTokenLinks(db);
  const agentStars = new AgentStarsOwners(db);
  const chatGuard = new ChatWriteGuard(agentChats.list(teamIndexDocumentId), tokenLinks.list(), teamIndexDocumentId, agentStars.list(teamIndexDocumentId));
  chatWrites = chatGuard;
  const maxMessageBytes = options.maxMessageBytes ?? MAX_RELAY_MESSAGE_BYTES;
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxMessageBytes });
  const loadedDocuments = () => Object.keys(repo.handles).length;
  const serveHttp = (req: IncomingMessage, res: ServerResponse): void =>
    handleHttp(
      {
        health: () => ({ documents: loadedDocuments(), connections: adapter.connectionCount }),
        authenticate: async (token, address) => {
          const outcome = await auth.authenticate(token, address);
          return outcome.ok ? { ok: true, user: outcome.identity.user } : outcome;
        },
        teamIndexDocumentId,
        admissionMethods: options.github ? ["relay-token", "github"] : ["relay-token"],
        allowQueryToken: options.allowQueryToken === true,
        onRefused: (address, status, reason) => refusals(req.url?.startsWith("/v1/agent-") ? (req.url.startsWith("/v1/agent-stars") ? "/v1/agent-stars" : "/v1/agent-chats") : "/v1/team", address, status, reason),
        agentChats: {
          chats: agentChats,
          stars: agentStars,
          team: teamIndexDocumentId,
          onRegistered: (chat) => chatGuard.note(chat),
          onStarsRegistered: (stars) => chatGuard.noteStars(stars),
          links: { table: tokenLinks, verify: (token) => users.authenticate(token)?.handle ?? null, onLinked: (link) => chatGuard.noteLink(link) },
        },
      },
      req,
      res,
    );
  const serveUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const presented = bearerToken(req, options.allowQueryToken === true);
    if (!presented.ok) {
      refusals("upgrade", req.socket.remoteAddress, 400, presented.message);
      refuseUpgrade(socket, 400, "invalid-input", presented.message);
      return;
    }
    void auth.authenticate(presented.token, req.socket.remoteAddress).then(
      (outcome) => {
        if (!outcome.ok) {
          refusals("upgrade", req.socket.remoteAddress, outcome.status, outcome.message);
          refuseUpgrade(socket, outcome.status, outcome.code, outcome.message, outcome.retryAfterSeconds);
          return;
        }
        // A socket closed while GitHub was asked is dropped by ws itself (it checks the socket before upgrading).
        wss.handleUpgrade(req, socket, head, (ws) => {
          auth.accepted(ws, outcome);
          sayWhyTooBig(ws, maxMessageBytes);
          adapter.accept(ws, outcome.identity, req.socket.remoteAddress);
        });
      },
      () => refuseUpgrade(socket, 500, "internal", "The relay could not check the token."),
    );
  };

  const pollUsers = (): number => {
    let active: Map<string, string>;
    try {
      active = users.activeCredentials();
    } catch (error) {
      log(`user poll failed: ${String(error)}`);
      return 0;
    }
    const handles = new Set<string>();
    const cut = adapter.cutWhere(
      // GitHub-admitted sockets are not in the users table; live re-verification judges them.
      (identity) => {
        const revoked = !isGitHubIdentity(identity.user) && active.get(identity.user) !== identity.tokenHash;
        if (revoked) handles.add(identity.user);
        return revoked;
      },
      CLOSE_CODES.revoked,
      "access to this relay was revoked",
    );
    if (cut > 0) log(`cut ${cut} revoked connection(s) of ${[...handles].join(", ")}`);
    return cut;
  };
  const userPoll = setInterval(pollUsers, timings.userPollMs);
  userPoll.unref();
  evictor.start();

  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  log(`relay listening on ws://${urlHost}:${port}/ (data: ${options.dataDir})`);

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      clearInterval(userPoll);
      clearInterval(purgeSweep);
      teamDeletions.stop();
      leases?.close();
      auth.stop();
      await evictor.stop();
      server.close();
      adapter.disconnect();
      server.closeAllConnections();
      wss.close();
      // Batches already forwarded reach this copy before it is saved.
      await fastPath?.flush();
      // Not repo.shutdown(): its flush throws on any handle that is not ready (e.g. a document requested but never
      // created), which would skip saving the rest.
      await repo.flush(readyDocumentIds(repo));
      acks.stop();
      const unstored = acks.failing();
      if (unstored.length > 0) {
        log(`${unstored.length} document(s) could not be stored before stopping (${unstored.join(", ")}); their latest changes were never acknowledged, so the clients that sent them send them again`);
      }
      // Throttled saves still pending would write what flush() just wrote; they now go nowhere.
      closableStorage.close();
      db.close();
      lock.release();
      log("relay stopped");
    })();
    return closing;
  };

  const running: RunningRelay = {
    url: `ws://${urlHost}:${port}/`,
    httpUrl: `http://${urlHost}:${port}`,
    port,
    repo,
    users,
    db,
    dbFile: join(options.dataDir, RELAY_DB_FILE),
    teamIndexDocumentId,
    adapter,
    evictor,
    fastPath,
    unavailable,
    deleted,
    leases,
    chatWrites: chatGuard,
    purgeDeleted: purge,
    httpServer: server,
    loadedDocuments,
    connections: () => adapter.connectionCount,
    pollUsers,
    reverifyGitHub: () => auth.reverifyGitHub(),
    close,
  };
  return { running, serveHttp, serveUpgrade };
}

/** "alice as peer alice:laptop from 127.0.0.1" for the log. */
function describeConnection({ user, peerId, address }: ConnectionFacts): string {
  return `${user} ${peerId === null ? "before joining" : `as peer ${printable(peerId)}`} from ${address ?? "unknown address"}`;
}

/** Client-chosen text (a peer id, a close reason) stays on its one log line. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, "?");
}

function readyDocumentIds(repo: Repo): DocumentId[] {
  return Object.values(repo.handles)
    .filter((handle) => handle.isReady())
    .map((handle) => handle.documentId);
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

function refuseUpgrade(socket: Duplex, status: number, code: string, message: string, retryAfterSeconds?: number): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ code, message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Error"}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      (status === 401 ? 'WWW-Authenticate: Bearer realm="chopin-relay"\r\n' : "") +
      (retryAfterSeconds !== undefined ? `Retry-After: ${retryAfterSeconds}\r\n` : status === 503 ? "Retry-After: 5\r\n" : "") +
      "Connection: close\r\n\r\n" +
      body,
  );
}
