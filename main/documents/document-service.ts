/**
 * The document half of ChopinApi over the core's automerge-repo Repo, plus what the MCP server and the share policy
 * need (createDocumentWith, updateMarkdown, getContent, isShared, setTeamIndex, setRelay). This class only
 * wires the purposes together; each lives in its own module and reaches plans through PlanAccess (plan-access.ts):
 * reads (plan-reads.ts), edits (plan-writes.ts), sharing (team-sharing.ts), saving (document-saving.ts), import
 * (document-import.ts), repository binding (repository-binding.ts), version history (version-history-service.ts),
 * and index upkeep on every change (index-upkeep.ts).
 * What must stay true: every write validates bounds first and refuses archived documents; every change names its
 * author; text is written with updateText (a minimal diff) so concurrent edits merge; sharing never reverses; every
 * method reports failure as a rejected promise, never a synchronous throw. A write of the window's API (DocumentApi,
 * and the repository binding) answers only once it is on disk, as MCP's writes do: on a disk that cannot take it, it
 * rejects with 'storage-failure' while the change stays in memory and is saved once the disk takes writes again
 * (repo-save-guard.ts), the same news the window's "Not saved yet" gives for typed text.
 */
import type { SetAsideChunks } from "./damaged-removal.js";
import type { DocumentId, Repo } from "@automerge/automerge-repo";
import type { Database } from "better-sqlite3";
import type {
  DocumentsApi,
  VersionsApi,
  ChopinEvents,
  CreateDocumentInput,
  DocumentDetail,
  DocumentSnapshot,
  DocumentSummary,
  ListDocumentsQuery,
  MarkdownFile,
  MarkdownFileInput,
  SaveReceipt,
  VersionContent,
  VersionEntry,
} from "../../shared/api.js";
import { WAIT_SAVED_TIMEOUT_MS } from "../util/limits.js";
import { exportMarkdown, readMarkdownFile } from "./markdown-files.js";
import type { RepositoryBinding } from "../../shared/schema/plan-document.js";
import { ChopinError } from "../../shared/errors.js";
import type { TypedEmitter } from "../util/typed-emitter.js";
import type { AgentAuthor } from "./change-messages.js";
import { CoalescedIds, watchRepoChanges } from "./change-watcher.js";
import { importDocument } from "./document-import.js";
import { agentChatPlanExists, agentChatPlanIds, agentChatPlans, openOrBeginAgentChatPlan, type AgentChatPlanStart } from "./agent-chat-plan.js";
import { refetchDamagedPlan } from "./damaged-refetch.js";
import { openOrCreateHandoffPlan, type HandoffPlanStart } from "./handoff-plan.js";
import { persistDocument, waitSaved } from "./document-saving.js";
import type { IndexEntry } from "../../shared/schema/workspace-index.js";
import { PerDocumentQueue } from "./per-document-queue.js";
import { SnapshotRepair } from "./snapshot-repair.js";
import { hasEntry } from "./workspace-index.js";
import { indexUpkeep } from "./index-upkeep.js";
import { Indexes } from "./indexes.js";
import { TeamPrefetch } from "./team-prefetch.js";
import type { IndexRecovery } from "./index-recovery.js";
import { PlanAccess } from "./plan-access.js";
import { releasePlan } from "./plan-release.js";
import * as reads from "./plan-reads.js";
import * as writes from "./plan-writes.js";
import { setRepository } from "./repository-binding.js";
import { SnapshotWriter } from "./snapshot-writer.js";
import { TeamSharing } from "./team-sharing.js";
import { keepTeamRemoved } from "./team-removed.js";
import * as history from "./version-history-service.js";

export type { DocumentContent } from "./plan-reads.js";
export type { NewDocumentInput } from "./plan-writes.js";

/** What the window may ask of documents and their versions (the service takes more, e.g. who made a change). */
export type DocumentApi = DocumentsApi & VersionsApi;

export interface DocumentServiceOptions {
  repo: Repo;
  db: Database;
  events: TypedEmitter<ChopinEvents>;
  /** The local person's display name, recorded on every change the service makes. */
  displayName: () => string;
  now?: () => number;
  waitSavedTimeoutMs?: number;
  /** How often a changing document's text snapshot is rewritten (SNAPSHOT_WRITE_INTERVAL_MS by default). */
  snapshotIntervalMs?: number;
  /** The ids of every document in storage, for rebuilding an unreadable local index (Indexes.open). */
  storedIds?: () => readonly string[];
  /** Whether storage holds anything of a document (team-prefetch.ts skips those). Default: nothing is stored. */
  holds?: (documentId: string) => boolean;
  /** Keeps a damaged plan's stored bytes aside so it can be deleted unarchived (damaged-removal.ts). Default: none. */
  setAside?: SetAsideChunks;
  /** Whether a window syncs the document now (a prefetched plan is then kept loaded, plan-release.ts). Default: none. */
  inWindow?: (documentId: string) => boolean;
  /** Hears a background write to chopin.db that was refused (a snapshot, a teammate's removal), once per run. */
  onStorageFault?: (failure: ChopinError) => void;
  /** How soon such a write is tried again (STORAGE_RETRY_MS by default). */
  storageRetryMs?: number;
  /** Whether the relay link is connected now, so a teammate's plan still arriving is worth waiting for (plan-access.ts). */
  teamReachable?: () => boolean;
  /** This app's person as agent chats key them: a teammate's chat plan is read here and never changed (issue #27). */
  chatPerson?: () => string;
  /** How long opening a teammate's plan still arriving waits, and how often it asks again (tests shorten them). */
  arrivalWaitMs?: number;
  arrivalRetryMs?: number;
}

export class DocumentService implements DocumentApi {
  readonly #access: PlanAccess;
  readonly #sharing: TeamSharing;
  readonly #db: Database;
  readonly #waitSavedTimeoutMs: number;
  readonly #setAside: SetAsideChunks | undefined;
  readonly #holds: (documentId: string) => boolean;
  /** Writes to one plan run one at a time (per-document-queue.ts). */
  readonly #writes = new PerDocumentQueue();

  /** Fetches the team's plans this device lacks, so they open offline (team-prefetch.ts). */
  readonly #prefetch: TeamPrefetch;
  /** Rewrites snapshot rows a crash left missing or stale (snapshot-repair.ts). */
  readonly #repair: SnapshotRepair;

  private constructor(options: DocumentServiceOptions, access: PlanAccess) {
    this.#access = access;
    const { repo, indexes } = access;
    const holds = options.holds ?? (() => false);
    const inWindow = options.inWindow ?? (() => false);
    const used = (id: string) => access.usedHere(id) || inWindow(id);
    const heldHere = (id: string) => repo.handles[id as DocumentId]?.isReady() === true || holds(id);
    // Loaded (which indexes it and writes its snapshot row), stored, then let go unless someone uses it: every plan
    // of a large team stayed in memory (plan-release.ts).
    const loadThenLetGo = async (id: string) => {
      await access.find(id, { background: true });
      await releasePlan(access, id, used).catch(() => false);
    };
    // Only plans this device shares with the team: a listed plan it keeps private, or one not recorded yet, is never
    // asked of the relay.
    const teamPlans = () => indexes.teamIds().filter((id) => indexes.isShared(id));
    this.#prefetch = new TeamPrefetch({ teamIds: teamPlans, held: heldHere, fetch: loadThenLetGo });
    this.#repair = new SnapshotRepair({
      db: options.db,
      listed: () => [...indexes.list()].map(([id, listed]) => [id, listed.entry] as [string, IndexEntry]),
      // The local index lists only plans made or kept here; the team's others are team prefetch's to bring.
      held: (id) => heldHere(id) || hasEntry(indexes.local, id),
      visit: loadThenLetGo,
    });
    this.#sharing = new TeamSharing(access);
    this.#db = options.db;
    this.#waitSavedTimeoutMs = options.waitSavedTimeoutMs ?? WAIT_SAVED_TIMEOUT_MS;
    this.#setAside = options.setAside;
    this.#holds = holds;
  }

  static async open(options: DocumentServiceOptions): Promise<DocumentService> {
    const now = options.now ?? Date.now;
    const holds = options.holds ?? (() => false);
    const faults = { onFault: options.onStorageFault, retryMs: options.storageRetryMs };
    // Held: a handle made here (loaded, loading or asked for) or stored chunks; the team's list never shares those.
    const held = (id: string) => options.repo.handles[id as DocumentId] !== undefined || holds(id);
    const indexes = await Indexes.open(options.repo, options.db, options.storedIds, { ...faults, held, now });
    const changed = new CoalescedIds((ids) => options.events.emit("documents-changed", { ids }));
    const snapshots = new SnapshotWriter({ db: options.db, intervalMs: options.snapshotIntervalMs, now, ...faults });
    const { repo, displayName } = options;
    const access = new PlanAccess({
      repo,
      indexes,
      snapshots,
      changed,
      displayName,
      now,
      held: (id) => repo.handles[id as DocumentId]?.isReady() === true || holds(id),
      teamReachable: options.teamReachable,
      chatPerson: options.chatPerson,
      arrivalWaitMs: options.arrivalWaitMs,
      arrivalRetryMs: options.arrivalRetryMs,
    });
    const service = new DocumentService(options, access);
    access.watch = watchRepoChanges(
      repo,
      indexUpkeep(indexes, changed, snapshots, (ids) => keepTeamRemoved(access, ids), () => service.prefetchTeam()),
      (id) => {
        changed.add([id]);
        // Gone from this device: team prefetch must not go on counting it as held (team-prefetch.ts).
        service.#prefetch.forget(id);
      },
    );
    access.track(indexes.local);
    void service.repairSnapshots();
    return service;
  }

  /** Stops watching and writes every pending snapshot; call before the database closes. */
  close(): void {
    this.#prefetch.stop();
    this.#repair.stop();
    this.#access.watch?.stop();
    this.#access.snapshots.close();
    this.#access.indexes.close();
  }

  get localIndexId(): DocumentId {
    return this.#access.indexes.local.documentId;
  }

  get teamIndexId(): DocumentId | null {
    return this.#access.indexes.team?.documentId ?? null;
  }

  /** Set when this start found the local index unreadable and rebuilt it from the plans in storage. */
  get indexRecovery(): IndexRecovery | null {
    return this.#access.indexes.recovery;
  }

  // ---- share policy (team-sharing.ts) ----

  /** The core's share policy asks this: may `documentId` go to the relay? */
  isShared(documentId: string): boolean {
    return this.#access.isShared(documentId);
  }

  /**
   * The relay address shares belong to (null: none). New documents are shared by default when one is set; shares
   * recorded for any other relay stop counting at once.
   */
  setRelay(url: string | null): void {
    this.#sharing.setRelay(url);
  }

  /** Attaches (or detaches, with null) the team index and enters every recorded share into it. */
  async setTeamIndex(documentId: string | null, confirmed = false): Promise<void> {
    await this.#sharing.setTeamIndex(documentId, confirmed);
    this.prefetchTeam();
    void this.repairSnapshots();
  }

  /** Rewrites, in the background, the snapshot rows a crash left missing or stale; resolves when the pass is done. */
  repairSnapshots(): Promise<void> {
    return this.#repair.run();
  }

  /**
   * Starts fetching the team's plans this device does not hold yet (team-prefetch.ts). Runs on every change of the
   * team's list; the core calls it with `retry` whenever the relay link connects, so fetches that failed offline are
   * tried again.
   */
  prefetchTeam(retry = false): void {
    if (retry) this.#prefetch.retryFailed();
    else this.#prefetch.run();
  }

  /** Private -> shared, never the reverse. */
  async shareDocument(id: string): Promise<DocumentSummary> {
    return this.#oneAtATime(id, () => this.#sharing.shareDocument(id));
  }

  /** A damaged shared plan: its bytes set aside, the team's copy fetched (damaged-refetch.ts). */
  async restoreDamagedFromTeam(id: string): Promise<DocumentDetail> {
    const setAside = this.#setAside;
    if (!setAside) throw new ChopinError("not-configured", "This core keeps no place to set a damaged plan's bytes aside.");
    return this.#oneAtATime(id, () => refetchDamagedPlan(this.#access, id, setAside));
  }

  // ---- reads (plan-reads.ts) ----

  async listDocuments(query?: ListDocumentsQuery): Promise<DocumentSummary[]> {
    return reads.listDocuments(this.#access, this.#db, query);
  }

  async getDocument(id: string): Promise<DocumentDetail> {
    return reads.getDocument(this.#access, id);
  }

  /** Detail plus the Markdown body (what MCP read_document returns). */
  async getContent(id: string): Promise<reads.DocumentContent> {
    return reads.getContent(this.#access, id);
  }

  /** The stored text snapshot, without loading the document; null when none is stored or the id is unknown. */
  async openSnapshot(id: string): Promise<DocumentSnapshot | null> {
    return reads.openSnapshot(this.#access, this.#db, id);
  }

  /** The plan's stored Automerge bytes (base64), read without loading the document; null when not available. */
  async readSavedDocument(id: string): Promise<string | null> {
    return reads.readSavedDocument(this.#access, id);
  }

  // ---- edits (plan-writes.ts) ----

  /** The plan as a Markdown file (markdown-files.ts). */
  async exportMarkdown(id: string): Promise<MarkdownFile> {
    const { plan } = await this.#access.load(id);
    return exportMarkdown(plan.title, plan.text);
  }

  /** A Markdown file as a new private plan; a file that is not UTF-8 or too large is refused whole (markdown-files.ts). */
  async importMarkdown(input: MarkdownFileInput): Promise<DocumentDetail> {
    const { title, markdown } = readMarkdownFile(input);
    return this.#saved(await this.createDocumentWith({ title, markdown, shared: false }));
  }

  /** No input at all (the UI's New) makes a default document (the API's schema refused anything but an object). */
  async createDocument(input?: CreateDocumentInput): Promise<DocumentDetail> {
    const { title, markdown, shared } = input ?? {};
    return this.#saved(await this.createDocumentWith({ title, markdown, shared }));
  }

  /** `by`: the agent asking (its changes are credited to it in the history); the person at this device when absent. */
  async createDocumentWith(input: writes.NewDocumentInput, by?: AgentAuthor): Promise<DocumentDetail> {
    return writes.createDocument(this.#access, input, this.#sharing.defaultShared, by);
  }

  async renameDocument(id: string, title: string, by?: AgentAuthor): Promise<DocumentSummary> {
    return this.#oneAtATime(id, async () => this.#saved(await writes.renameDocument(this.#access, id, title, by)));
  }

  /** Idempotent: archiving an archived document changes nothing. */
  async archiveDocument(id: string, by?: AgentAuthor): Promise<DocumentSummary> {
    return this.#oneAtATime(id, async () => this.#saved(await writes.archiveDocument(this.#access, id, by)));
  }

  /** Idempotent: restoring a live document changes nothing. */
  async restoreDocument(id: string, by?: AgentAuthor): Promise<DocumentSummary> {
    return this.#oneAtATime(id, async () => this.#saved(await writes.restoreDocument(this.#access, id, by)));
  }

  /**
   * Only an archived document can be deleted; it leaves both indexes and this device's storage. `beforeLeaving` runs
   * once the delete is certain, while the document is still indexed and synced. A damaged plan (its stored copy
   * cannot be read) is removed unarchived, its bytes set aside (damaged-removal.ts).
   */
  async deleteDocument(id: string, beforeLeaving?: (documentId: string) => Promise<void>): Promise<void> {
    return this.#oneAtATime(id, async () => {
      await writes.deleteDocument(this.#access, id, beforeLeaving, this.#setAside);
      // Answered once the indexes without it are on disk: a crash after the answer must not bring back an entry
      // whose plan is gone (listed, but refused as not found by every call, for good).
      await this.#access.repo.flush(this.#access.indexes.documentIds());
    });
  }

  /** MCP's full-body update: refuses a stale revision ('revision-conflict', details.revision = current). */
  async updateMarkdown(id: string, expectedRevision: string, markdown: string, by?: AgentAuthor): Promise<DocumentDetail> {
    return this.#oneAtATime(id, () => writes.updateMarkdown(this.#access, id, expectedRevision, markdown, by));
  }

  // ---- agent chats' own plans (agent-chat-plan.ts, issue #27) ----

  /** Whether an agent chat's plan is here or listed: a read only, nothing is made. */
  agentChatPlanExists(documentId: DocumentId): boolean {
    return agentChatPlanExists(this.#access, documentId, this.#holds);
  }

  /** The agent chats' plans this device's lists name (listDocuments leaves them out). */
  agentChatPlanIds(): string[] {
    return agentChatPlanIds(this.#access);
  }

  /** The chat plans this device's lists name, with their marks (the chats table is filled from these at start). */
  agentChatPlans(): ReturnType<typeof agentChatPlans> {
    return agentChatPlans(this.#access);
  }

  /** The chat's plan, begun at its derived id where this device does not hold it; answered once on disk. */
  async openOrBeginAgentChatPlan(start: AgentChatPlanStart): Promise<DocumentDetail> {
    return this.#oneAtATime(start.documentId, () => openOrBeginAgentChatPlan(this.#access, start, this.#holds));
  }

  /** A plan handed off from an agent chat, made at its reserved id unless held there (handoff-plan.ts); answered once on disk. */
  async openOrCreateHandoffPlan(start: HandoffPlanStart): Promise<DocumentDetail> {
    return this.#oneAtATime(start.documentId, () => openOrCreateHandoffPlan(this.#access, start, this.#holds));
  }

  /** Adds a saved Automerge document as a new one; refuses anything else with 'invalid-document'. */
  async importDocument(bytes: Uint8Array, options: { shared?: boolean } = {}): Promise<DocumentDetail> {
    return importDocument(this.#access, bytes, options.shared ?? this.#sharing.defaultShared);
  }

  /** Binds the document to a repository, or unbinds it with null (repository-binding.ts). */
  async setRepository(id: string, binding: RepositoryBinding | null): Promise<DocumentDetail> {
    return this.#oneAtATime(id, async () => this.#saved(await setRepository(this.#access, id, binding)));
  }

  // ---- saving (document-saving.ts) ----

  /** Writes the document and both indexes to storage now; await it before reporting a write as done outside. */
  async persist(id: string): Promise<void> {
    return persistDocument(this.#access, id);
  }

  /** Resolves once the core's handle holds `heads` and they are flushed to storage. */
  async waitSaved(id: string, heads: string[]): Promise<SaveReceipt> {
    return waitSaved(this.#access, id, heads, this.#waitSavedTimeoutMs);
  }

  /** Runs a write after any other write to the same plan; an id that does not parse is refused by `work` itself. */
  #oneAtATime<T>(id: string, work: () => Promise<T>): Promise<T> {
    let key: string;
    try {
      key = this.#access.parseId(id);
    } catch {
      return work();
    }
    return this.#writes.run(key, work);
  }

  /** A write's answer, once the plan and both indexes are on disk; 'storage-failure' (kept in memory) when not. */
  async #saved<T extends { id: string }>(answer: T): Promise<T> {
    await this.persist(answer.id);
    return answer;
  }

  // ---- version history (version-history-service.ts) ----

  async listVersions(id: string): Promise<VersionEntry[]> {
    return history.listVersions(this.#access, id);
  }

  async readVersion(id: string, versionId: string): Promise<VersionContent> {
    return history.readVersion(this.#access, id, versionId);
  }

  /** ONE new change making title and text equal that version; history keeps everything in between. */
  async restoreVersion(id: string, versionId: string, basis?: unknown): Promise<DocumentDetail> {
    return this.#oneAtATime(id, async () => this.#saved(await history.restoreVersion(this.#access, id, versionId, basis)));
  }
}
