/**
 * Keeps the core's Repo connected to the configured relay: one RelayConnection at a time (replaced when the URL or
 * token changes), the team index learned from GET /v1/team (cached per relay, so an offline start still lists the
 * team's documents), and the relay's storage id (cached, so "N changes waiting" is right while offline).
 * The credential is the relay token when one is set, else the signed-in GitHub user token (relay admission by GitHub,
 * issue #3; see relayCredential): follow() reconnects only when the address or that credential really changed, so
 * every GitHub refresh reconnects once with the fresh token and signing out of GitHub disconnects. A GitHub token is
 * sent only to a relay that says it takes GitHub sign-ins, over wss:// or to this computer (github-credential-gate.ts).
 * What must stay true: the adapter of a replaced connection is removed from the Repo before the new one joins. What
 * is remembered in settings (the team index id, the relay's storage id, the relay's name for this person) is a cache:
 * a database that refuses the write (a full disk) is said once and the write tried at the next chance; it must never
 * throw (relayStorageId runs in the core's status timer, where a throw ended the process) nor keep the team's list
 * from attaching (the failed cache write made every team lookup fail, reported as the relay being unavailable).
 */
import { TypedEmitter } from "../util/typed-emitter.js";
import type { LeaseRequestFrame, LeaseStateFrame } from "../../shared/lease-wire.js";
import type { PeerId, Repo, StorageId } from "@automerge/automerge-repo";
import { RelayReceived } from "./relay-received.js";
import type { Database } from "better-sqlite3";
import type { SyncState } from "../../shared/api.js";
import type { ChopinError, ErrorShape } from "../../shared/errors.js";
import type { DocumentService } from "../documents/document-service.js";
import { getSetting, setSetting } from "../store/settings.js";
import { RelayConnection } from "./relay-connection.js";
import { githubNotAdmitted, githubTransportRefusal, type RelayCredential } from "./github-credential-gate.js";
import { retryDelay } from "./retry-delay.js";
import { fetchAdmission, fetchTeamInfo } from "./team-info.js";
import { FaultRun } from "../util/fault-run.js";

export interface RelayLinkStatus {
  state: SyncState;
  relayUrl: string | null;
  lastError: ErrorShape | null;
  /** While offline and retrying: when the next attempt starts (Date.now() ms). */
  nextRetryAt: number | null;
}

/** What the status says while a relay address is set but there is neither a relay token nor a GitHub sign-in. */
export function noCredential(url: string): ErrorShape {
  return {
    code: "unauthorized",
    message: `Chopin has nothing to sign in to the team relay at ${url} with: add your relay token in Settings (or sign in with GitHub, if your team uses it).`,
    details: { missing: "credential" },
  };
}

/** Backoff while the team index cannot be fetched or found yet. */
const TEAM_RETRY_MIN_MS = 250;
const TEAM_RETRY_MAX_MS = 10_000;

/** Backoff while the relay's admission cannot be asked (offline), before a GitHub sign-in may be sent. */
const ADMISSION_RETRY_MIN_MS = 250;
const ADMISSION_RETRY_MAX_MS = 30_000;

/** The relay token wins when set (teams without GitHub, or an explicit choice); else the GitHub user token. */
export function relayCredential(relayToken: string | null, githubToken: string | null): RelayCredential | null {
  if (relayToken) return { kind: "relay-token", token: relayToken };
  if (githubToken) return { kind: "github", token: githubToken };
  return null;
}

/** Before a GitHub sign-in goes to the relay: still asking whether it takes one, or refused (with why). */
type GitHubGate =
  | { state: "asking"; lastError: ErrorShape | null; nextRetryAt: number | null }
  | { state: "refused"; error: ErrorShape };

const teamIndexKey = (url: string) => `relay.teamIndexId:${url}`;
const storageIdKey = (url: string) => `relay.storageId:${url}`;

export class RelayLink {
  #connection: RelayConnection | null = null;
  #teamError: ErrorShape | null = null;
  #generation = 0;
  /** What configure() last applied, so follow() can tell a real change from a repeated announcement. */
  #applied: { url: string | null; credential: RelayCredential | null } | null = null;
  /** Set while a GitHub sign-in waits to be allowed to the relay, or was refused; null otherwise. */
  #gate: GitHubGate | null = null;
  #closed = false;
  readonly #learning = new WeakSet<RelayConnection>();
  readonly #received: RelayReceived;
  /** A refused cache write is said once per run of them. */
  readonly #rememberFaults: FaultRun;
  /** Planner-ownership frames of whichever connection is current (issue #25; main/planner/lease-client.ts). */
  readonly #leaseFrames = new TypedEmitter<{ frame: LeaseStateFrame; link: { agreed: boolean } }>();

  constructor(
    private readonly repo: Repo,
    private readonly db: Database,
    private readonly documents: Pick<DocumentService, "setRelay" | "setTeamIndex" | "isShared">,
    private readonly peerId: string,
    private readonly onChange: () => void,
    /** Told who the relay says this device signs in as, each time the team is learnt (it may write settings). */
    private readonly onTeamUser: (user: string) => void = () => undefined,
    /** Hears a cache write to chopin.db that was refused, once per run of them. */
    private readonly onStorageFault: (failure: ChopinError) => void = () => undefined,
  ) {
    this.#received = new RelayReceived(repo);
    this.#rememberFaults = new FaultRun(onStorageFault);
  }

  /** (Re)connects to `url` with `credential`; null for either disconnects and returns to local-only. */
  async configure(url: string | null, credential: RelayCredential | null): Promise<void> {
    const generation = ++this.#generation;
    this.#applied = { url, credential };
    this.#disconnect();
    this.#received.clear();
    this.#teamError = null;
    this.#gate = null;
    this.documents.setRelay(url);
    if (!url || !credential) {
      await this.documents.setTeamIndex(null);
      this.onChange();
      return;
    }
    const cachedTeamIndex = getSetting(this.db, teamIndexKey(url));
    if (cachedTeamIndex) {
      try {
        await this.documents.setTeamIndex(cachedTeamIndex);
      } catch {
        // Not on this device yet (its first fetch never finished, e.g. the relay was switched away meanwhile): the
        // connection below brings it, and learning the team attaches it. It must not keep the connection from starting.
      }
    }
    if (generation !== this.#generation) return;
    if (credential.kind === "github") {
      // In the background: an offline start must not wait for the relay to say how it admits members.
      void this.#connectWithGitHub(url, credential.token, generation);
      return;
    }
    this.#connect(url, credential.token);
  }

  /** Connects with the GitHub sign-in once the relay said it takes one, over a transport that keeps it secret. */
  async #connectWithGitHub(url: string, token: string, generation: number): Promise<void> {
    const insecure = githubTransportRefusal(url);
    if (insecure) {
      this.#gate = { state: "refused", error: insecure };
      this.onChange();
      return;
    }
    for (let attempt = 0; generation === this.#generation && !this.#closed; attempt++) {
      this.#gate = { state: "asking", lastError: this.#gate?.state === "asking" ? this.#gate.lastError : null, nextRetryAt: null };
      this.onChange();
      try {
        const admission = await fetchAdmission(url);
        if (generation !== this.#generation) return;
        if (!admission.github) {
          this.#gate = { state: "refused", error: githubNotAdmitted(url) };
          this.onChange();
          return;
        }
        this.#gate = null;
        this.#connect(url, token);
        return;
      } catch (error) {
        if (generation !== this.#generation) return;
        const delay = retryDelay(attempt, Math.random(), ADMISSION_RETRY_MIN_MS, ADMISSION_RETRY_MAX_MS);
        const lastError = { code: "relay-unavailable" as const, message: (error as Error).message ?? "The relay did not answer." };
        this.#gate = { state: "asking", lastError, nextRetryAt: Date.now() + delay };
        this.onChange();
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
      }
    }
  }

  #connect(url: string, token: string): void {
    // The device id goes on the wire as "<handle>:<device>", so this device may later sign in as another user.
    // Every frame naming a document asks the share decision, both ways: one that stops being shared stops at once.
    const connection = new RelayConnection({ url, token, peerId: this.peerId, qualifyPeerId: true, mayCarry: (id) => this.documents.isShared(id) });
    // The change fast path (docs/architecture.md, "Sync fast path") needs the Repo to read new changes from.
    connection.attachRepo(this.repo);
    connection.onReceived((documentId, hashes) => {
      if (this.#connection === connection) this.#received.note(documentId, hashes);
    });
    connection.adapter.leaseEvents.on("frame", (frame) => {
      if (this.#connection === connection) this.#leaseFrames.emit("frame", frame);
    });
    connection.adapter.leaseEvents.on("link", (link) => {
      if (this.#connection === connection) this.#leaseFrames.emit("link", link);
    });
    this.#connection = connection;
    let teamKnown = false;
    connection.onStatus((event) => {
      if (this.#connection !== connection) return;
      if (event.state === "connected") {
        if (!teamKnown) void this.#learnTeamUntilKnown(connection, url, token).then((ok) => (teamKnown ||= ok));
      }
      this.onChange();
    });
    this.repo.networkSubsystem.addNetworkAdapter(connection.adapter);
    this.onChange();
  }

  /** configure() only when `url` or the credential differs from what is applied now (e.g. on every GitHub auth-state event). */
  async follow(url: string | null, credential: RelayCredential | null): Promise<void> {
    const applied = this.#applied;
    if (this.#closed) return;
    if (applied && applied.url === url && applied.credential?.kind === credential?.kind && applied.credential?.token === credential?.token) return;
    await this.configure(url, credential);
  }

  /** Retries with backoff while this connection is current and connected; a reconnect starts a fresh attempt. */
  async #learnTeamUntilKnown(connection: RelayConnection, url: string, token: string): Promise<boolean> {
    if (this.#learning.has(connection)) return false;
    this.#learning.add(connection);
    try {
      for (let delay = TEAM_RETRY_MIN_MS; this.#connection === connection && connection.status === "connected"; delay = Math.min(delay * 2, TEAM_RETRY_MAX_MS)) {
        if (await this.#learnTeam(connection, url, token)) return true;
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
      }
      return false;
    } finally {
      this.#learning.delete(connection);
    }
  }

  async #learnTeam(connection: RelayConnection, url: string, token: string): Promise<boolean> {
    try {
      const info = await fetchTeamInfo(url, token);
      if (this.#connection !== connection) return false;
      this.#remember(() => setSetting(this.db, teamIndexKey(url), info.teamIndexDocumentId));
      await this.documents.setTeamIndex(info.teamIndexDocumentId, true);
      this.#remember(() => this.onTeamUser(info.user));
      this.#teamError = null;
      this.onChange();
      return true;
    } catch (error) {
      this.#teamError = { code: "relay-unavailable", message: (error as Error).message ?? "The relay did not answer." };
      this.onChange();
      return false;
    }
  }

  isRelayPeer(peerId: PeerId | string): boolean {
    return this.#connection?.isRelayPeer(peerId) ?? false;
  }

  /** Changes of `documentId` the relay sent this device (it holds them), beyond what it acknowledged. */
  receivedHeads(documentId: string): readonly string[] {
    return this.#received.heads(documentId);
  }

  /** The live relay peer's storage id when connected (remembered for offline use), else the remembered one. */
  relayStorageId(): StorageId | null {
    const url = this.#connection?.url;
    if (!url) return null;
    const relayPeer = this.repo.peers.find((peer) => this.isRelayPeer(peer));
    const live = relayPeer ? this.repo.getStorageIdOfPeer(relayPeer) : undefined;
    const remembered = getSetting(this.db, storageIdKey(url)) as StorageId | null;
    if (live && live !== remembered) this.#remember(() => setSetting(this.db, storageIdKey(url), live));
    return live ?? remembered ?? null;
  }

  /** Writes a cached setting; one the database refuses is said (once per run) and written the next time it is due. */
  #remember(write: () => void): void {
    try {
      write();
      this.#rememberFaults.worked();
    } catch (error) {
      this.#rememberFaults.refused(error);
    }
  }

  status(): RelayLinkStatus {
    const connection = this.#connection;
    if (!connection) {
      // A relay address with nothing to sign in with is not "local only": shared plans wait for it, and the person
      // must hear what is missing.
      const url = this.#applied?.url;
      const gate = this.#gate;
      if (url && gate?.state === "refused") return { state: "unauthorized", relayUrl: url, lastError: gate.error, nextRetryAt: null };
      if (url && gate?.state === "asking") {
        return gate.lastError
          ? { state: "offline", relayUrl: url, lastError: gate.lastError, nextRetryAt: gate.nextRetryAt }
          : { state: "connecting", relayUrl: url, lastError: null, nextRetryAt: null };
      }
      if (url) return { state: "unauthorized", relayUrl: url, lastError: noCredential(url), nextRetryAt: null };
      return { state: "local-only", relayUrl: null, lastError: null, nextRetryAt: null };
    }
    const nextRetryAt = connection.status === "offline" ? connection.nextRetryAt : null;
    return { state: connection.status, relayUrl: connection.url, lastError: connection.lastError ?? this.#teamError, nextRetryAt };
  }

  /**
   * Lease frames over whichever relay connection is current: a request goes out on it (false when none carries lease
   * frames now), answers and pushes come back from it, and a switch or loss of the relay reads as a lost link.
   */
  get leaseTransport(): {
    send(frame: Omit<LeaseRequestFrame, "type" | "senderId" | "targetId">): boolean;
    onFrame(listener: (frame: LeaseStateFrame) => void): () => void;
    onLink(listener: (link: { agreed: boolean }) => void): () => void;
  } {
    return {
      send: (frame) => this.#connection?.adapter.sendLease(frame) ?? false,
      onFrame: (listener) => this.#leaseFrames.on("frame", listener),
      onLink: (listener) => this.#leaseFrames.on("link", listener),
    };
  }

  #disconnect(): void {
    const connection = this.#connection;
    if (!connection) return;
    this.#connection = null;
    if (connection.adapter.leaseLinkActive) this.#leaseFrames.emit("link", { agreed: false });
    void connection.close();
    try {
      this.repo.networkSubsystem.removeNetworkAdapter(connection.adapter);
    } catch {
      // Already gone from the Repo: nothing to remove.
    }
  }

  close(): void {
    this.#generation++;
    this.#closed = true;
    this.#disconnect();
    this.#received.dispose();
  }
}
