/**
 * The document half of ChopinApi over the core's automerge-repo Repo, plus what the MCP server and the share policy
 * need (createDocumentWith, updateMarkdown, getContent, isShared, setTeamIndex, setDefaultShared).
 * What must stay true: every write validates bounds first and refuses archived documents; every change names its
 * author; text is written with updateText (a minimal diff) so concurrent edits merge; sharing never reverses.
 */
import * as A from "@automerge/automerge";
import {
  interpretAsDocumentId,
  isValidDocumentId,
  type DocumentId,
  type Repo,
} from "@automerge/automerge-repo";
import type { Database } from "better-sqlite3";
import type {
  ChopinApi,
  ChopinEvents,
  CreateDocumentInput,
  DocumentDetail,
  DocumentSnapshot,
  DocumentSummary,
  ListDocumentsQuery,
  SaveReceipt,
  VersionContent,
  VersionEntry,
} from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import { MAX_DOCUMENT_ID_CHARS, MAX_LIST_DOCUMENTS, MAX_SAVED_DOCUMENT_BYTES, WAIT_SAVED_TIMEOUT_MS } from "../../shared/limits.js";
import type { Brief, CreatedVia, PlanDocument, Provenance, RepositoryBinding } from "../../shared/schema/plan-document.js";
import { PLAN_DOCUMENT_SCHEMA_VERSION, repositoryBindingSchema } from "../../shared/schema/plan-document.js";
import type { TypedEmitter } from "../core/typed-emitter.js";
import { stampAuthor } from "./authors.js";
import { agentChangeMessage, restoreChangeMessage, type AgentAuthor } from "./change-messages.js";
import { checkMarkdown, checkQuery, normalizeNewTitle, normalizeTitle } from "./bounds.js";
import { CoalescedIds, watchRepoChanges, type RepoWatch } from "./change-watcher.js";
import { toHexHeads, toUrlHeads } from "./heads.js";
import { contentAt, findVersion, listVersionEntries } from "./history.js";
import { Indexes } from "./indexes.js";
import { readSnapshot } from "./snapshot-store.js";
import { byRecency, findBodyMatches } from "./search.js";
import { SnapshotWriter } from "./snapshot-writer.js";
import { parsePlan, readPlan, revisionOfHandle, toDetail, toSummary, type PlanHandle } from "./plan-reader.js";
import { entryOf, idsFromIndexPatches, type IndexHandle } from "./workspace-index.js";
import type { WorkspaceIndex } from "../../shared/schema/workspace-index.js";

export type DocumentApi = Pick<
  ChopinApi,
  | "listDocuments"
  | "getDocument"
  | "createDocument"
  | "renameDocument"
  | "archiveDocument"
  | "restoreDocument"
  | "deleteDocument"
  | "shareDocument"
  | "waitSaved"
  | "listVersions"
  | "readVersion"
  | "restoreVersion"
  | "openSnapshot"
  | "readSavedDocument"
>;

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
}

/** Everything a new document can carry; the app passes title/markdown/shared, MCP the rest too. */
export interface NewDocumentInput extends CreateDocumentInput {
  createdVia?: CreatedVia;
  repository?: RepositoryBinding | null;
  provenance?: Provenance | null;
  brief?: Brief | null;
}

export interface DocumentContent {
  detail: DocumentDetail;
  markdown: string;
}

export class DocumentService implements DocumentApi {
  readonly #repo: Repo;
  readonly #events: TypedEmitter<ChopinEvents>;
  readonly #displayName: () => string;
  readonly #now: () => number;
  readonly #waitSavedTimeoutMs: number;
  readonly #indexes: Indexes;
  readonly #changed: CoalescedIds;
  readonly #db: Database;
  readonly #snapshots: SnapshotWriter;
  #watch: RepoWatch | null = null;
  #defaultShared = false;
  #teamRequest = 0;

  private constructor(options: DocumentServiceOptions, indexes: Indexes) {
    this.#repo = options.repo;
    this.#events = options.events;
    this.#displayName = options.displayName;
    this.#now = options.now ?? Date.now;
    this.#waitSavedTimeoutMs = options.waitSavedTimeoutMs ?? WAIT_SAVED_TIMEOUT_MS;
    this.#indexes = indexes;
    this.#changed = new CoalescedIds((ids) => this.#events.emit("documents-changed", { ids }));
    this.#db = options.db;
    this.#snapshots = new SnapshotWriter({ db: options.db, intervalMs: options.snapshotIntervalMs, now: this.#now });
  }

  static async open(options: DocumentServiceOptions): Promise<DocumentService> {
    const indexes = await Indexes.open(options.repo, options.db);
    const service = new DocumentService(options, indexes);
    service.#watch = watchRepoChanges(
      options.repo,
      (handle, patches) => service.#onChange(handle, patches),
      (id) => service.#changed.add([id]),
    );
    service.#watch.track(indexes.local as never);
    return service;
  }

  /** Stops watching and writes every pending snapshot; call before the database closes. */
  close(): void {
    this.#watch?.stop();
    this.#snapshots.close();
  }

  get localIndexId(): DocumentId {
    return this.#indexes.local.documentId;
  }

  get teamIndexId(): DocumentId | null {
    return this.#indexes.team?.documentId ?? null;
  }

  // ---- share policy ----

  /** The core's share policy asks this: may `documentId` go to the relay? */
  isShared(documentId: string): boolean {
    return this.#indexes.isShared(documentId);
  }

  /** New documents are shared by default when a relay is configured. */
  setDefaultShared(shared: boolean): void {
    this.#defaultShared = shared;
  }

  /** Attaches (or detaches, with null) the team index and enters every recorded share into it. */
  async setTeamIndex(documentId: string | null): Promise<void> {
    const request = ++this.#teamRequest;
    if (documentId === null) {
      const previous = this.#indexes.team;
      this.#indexes.setTeamHandle(null);
      if (previous) this.#changed.add([previous.documentId]);
      return;
    }
    const id = this.#parseId(documentId);
    this.#indexes.expectTeam(id);
    let handle: IndexHandle;
    try {
      handle = await this.#repo.find<WorkspaceIndex>(id);
    } catch {
      throw new ChopinError("relay-unavailable", "The team's document list is not available yet; it will be retried.");
    }
    if (request !== this.#teamRequest) return;
    this.#watch?.track(handle as never);
    this.#indexes.setTeamHandle(handle);
    await this.#indexes.reconcile(async (docId) => {
      try {
        return entryOf(readPlan(await this.#repo.find<PlanDocument>(docId)));
      } catch {
        return null;
      }
    });
    this.#changed.add([id, ...this.#indexes.list().keys()]);
  }

  // ---- reads ----

  async listDocuments(query: ListDocumentsQuery = {}): Promise<DocumentSummary[]> {
    const text = checkQuery(query?.query);
    const archived = query?.archived === true;
    const out: DocumentSummary[] = [];
    const bodyOnly: DocumentSummary[] = [];
    for (const [id, { entry, shared }] of this.#indexes.list()) {
      if ((entry.archivedAt !== null) !== archived) continue;
      // Titles come from the index (always current); bodies from the text snapshots (search.ts).
      if (text && !entry.title.toLowerCase().includes(text)) bodyOnly.push({ id, ...entry, shared });
      else out.push({ id, ...entry, shared });
    }
    if (text) out.push(...findBodyMatches(this.#db, text, bodyOnly));
    out.sort(byRecency);
    return out.slice(0, MAX_LIST_DOCUMENTS);
  }

  async getDocument(id: string): Promise<DocumentDetail> {
    const { handle, plan } = await this.#load(id);
    return toDetail(handle, plan, this.isShared(handle.documentId));
  }

  /** Detail plus the Markdown body (what MCP read_document returns). */
  async getContent(id: string): Promise<DocumentContent> {
    const { handle, plan } = await this.#load(id);
    return { detail: toDetail(handle, plan, this.isShared(handle.documentId)), markdown: plan.text };
  }

  /**
   * The stored text snapshot, without loading the document (null when none is stored). A malformed id is refused
   * with 'invalid-input'; an unknown one is simply null.
   */
  async openSnapshot(id: string): Promise<DocumentSnapshot | null> {
    const documentId = this.#parseId(id);
    const row = readSnapshot(this.#db, documentId);
    if (!row) return null;
    return { id: documentId, title: row.title, markdown: row.text, heads: toUrlHeads(row.heads) };
  }

  /**
   * The plan's stored Automerge chunks, concatenated and base64-encoded, read without loading the document; null for
   * ids this device does not list, for nothing stored yet, and above MAX_SAVED_DOCUMENT_BYTES. Loading them gives a
   * replica the stored state at once; anything newer still arrives through sync.
   */
  async readSavedDocument(id: string): Promise<string | null> {
    const documentId = this.#parseId(id);
    if (this.#indexes.isIndex(documentId) || !this.#indexes.knows(documentId)) return null;
    const bytes = await this.#repo.storageSubsystem?.loadDocData(documentId);
    if (!bytes || bytes.byteLength === 0 || bytes.byteLength > MAX_SAVED_DOCUMENT_BYTES) return null;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  }

  // ---- writes ----

  async createDocument(input: CreateDocumentInput = {}): Promise<DocumentDetail> {
    const { title, markdown, shared } = (input ?? {}) as CreateDocumentInput;
    return this.createDocumentWith({ title, markdown, shared });
  }

  /** `by`: the agent asking (its changes are credited to it in the history); the person at this device when absent. */
  async createDocumentWith(input: NewDocumentInput, by?: AgentAuthor): Promise<DocumentDetail> {
    const title = normalizeNewTitle(input.title);
    const markdown = input.markdown === undefined ? "" : checkMarkdown(input.markdown);
    if (input.shared !== undefined && typeof input.shared !== "boolean") {
      throw new ChopinError("invalid-input", "shared must be true or false.");
    }
    const shared = input.shared ?? this.#defaultShared;
    const now = this.#now();
    const handle = this.#repo.create<PlanDocument>();
    this.#watch?.track(handle as never);
    this.#change(handle, (doc) => {
      const init: PlanDocument = {
        schemaVersion: PLAN_DOCUMENT_SCHEMA_VERSION,
        kind: "plan",
        title,
        text: markdown,
        repository: input.repository ?? null,
        createdVia: input.createdVia ?? "app",
        provenance: input.provenance ?? null,
        brief: input.brief ?? null,
        archivedAt: null,
        createdAt: now,
        updatedAt: now,
        authors: {},
      };
      Object.assign(doc, init);
    }, by);
    const plan = readPlan(handle);
    this.#indexes.add(handle.documentId, entryOf(plan), shared, now);
    this.#changed.add([handle.documentId]);
    return toDetail(handle, plan, this.isShared(handle.documentId));
  }

  async renameDocument(id: string, title: string, by?: AgentAuthor): Promise<DocumentSummary> {
    const next = normalizeTitle(title);
    const { handle, plan } = await this.#loadWritable(id);
    if (plan.title !== next) {
      this.#change(handle, (doc) => {
        A.updateText(doc, ["title"], next);
        doc.updatedAt = this.#now();
      }, by);
    }
    return this.#summaryOf(handle);
  }

  /** Idempotent: archiving an archived document changes nothing. */
  async archiveDocument(id: string, by?: AgentAuthor): Promise<DocumentSummary> {
    const { handle, plan } = await this.#load(id);
    if (plan.archivedAt === null) this.#change(handle, (doc) => void (doc.archivedAt = this.#now()), by);
    return this.#summaryOf(handle);
  }

  /** Idempotent: restoring a live document changes nothing. */
  async restoreDocument(id: string, by?: AgentAuthor): Promise<DocumentSummary> {
    const { handle, plan } = await this.#load(id);
    if (plan.archivedAt !== null) this.#change(handle, (doc) => void (doc.archivedAt = null), by);
    return this.#summaryOf(handle);
  }

  /**
   * Adds a saved Automerge document (a plan, or an older draft that migrates to one) to this device as a new
   * document. Refuses anything else with 'invalid-document' and keeps nothing of it.
   */
  async importDocument(bytes: Uint8Array, options: { shared?: boolean } = {}): Promise<DocumentDetail> {
    let handle: PlanHandle;
    try {
      handle = this.#repo.import<PlanDocument>(bytes);
    } catch {
      throw new ChopinError("invalid-document", "That file is not a saved Automerge document.");
    }
    let plan: PlanDocument;
    try {
      plan = readPlan(handle);
    } catch (error) {
      this.#repo.delete(handle.documentId);
      throw error instanceof ChopinError && error.code !== "not-found"
        ? error
        : new ChopinError("invalid-document", "That document is not a Chopin plan.");
    }
    this.#watch?.track(handle as never);
    this.#indexes.add(handle.documentId, entryOf(plan), options.shared ?? this.#defaultShared, this.#now());
    this.#snapshots.changed(handle);
    this.#changed.add([handle.documentId]);
    return toDetail(handle, plan, this.isShared(handle.documentId));
  }

  /** Only an archived document can be deleted; it leaves both indexes and this device's storage. */
  async deleteDocument(id: string): Promise<void> {
    const { handle, plan } = await this.#load(id);
    if (plan.archivedAt === null) {
      throw new ChopinError("document-not-archived", "Archive the document before deleting it.");
    }
    this.#snapshots.forget(handle.documentId);
    this.#indexes.remove(handle.documentId);
    this.#repo.delete(handle.documentId);
    this.#changed.add([handle.documentId]);
  }

  /** Private -> shared, never the reverse. */
  async shareDocument(id: string): Promise<DocumentSummary> {
    const { handle, plan } = await this.#load(id);
    if (this.isShared(handle.documentId)) {
      throw new ChopinError("already-shared", "This document is already shared with the team.");
    }
    this.#indexes.share(handle.documentId, entryOf(plan), this.#now());
    this.#changed.add([handle.documentId]);
    return toSummary(handle.documentId, plan, true);
  }

  /**
   * Binds the document to a repository (or unbinds it, with null). The binding is validated against the schema before
   * it is written, so a damaged value can never make the document unreadable; archived documents refuse.
   */
  async setRepository(id: string, binding: RepositoryBinding | null): Promise<DocumentDetail> {
    let next: RepositoryBinding | null = null;
    if (binding !== null) {
      const parsed = repositoryBindingSchema.safeParse(binding);
      if (!parsed.success) throw new ChopinError("invalid-input", "That is not a repository Chopin can bind to.");
      // Automerge refuses undefined values: optional fields are written only when present.
      next = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined)) as RepositoryBinding;
    }
    const { handle, plan } = await this.#loadWritable(id);
    if (JSON.stringify(plan.repository) !== JSON.stringify(next)) {
      this.#change(handle, (doc) => {
        doc.repository = next === null ? null : { ...next };
        doc.updatedAt = this.#now();
      });
      this.#changed.add([handle.documentId]);
    }
    return toDetail(handle, readPlan(handle), this.isShared(handle.documentId));
  }

  /**
   * MCP's full-body update: refuses a stale revision (details.revision = current) and archived documents, then
   * applies the Markdown as a minimal text diff so a person's concurrent edits merge.
   */
  async updateMarkdown(id: string, expectedRevision: string, markdown: string, by?: AgentAuthor): Promise<DocumentDetail> {
    const body = checkMarkdown(markdown);
    const { handle } = await this.#loadWritable(id);
    const current = revisionOfHandle(handle);
    if (current !== expectedRevision) {
      throw new ChopinError("revision-conflict", "The document changed since that revision; read it again.", {
        revision: current,
      });
    }
    this.#change(handle, (doc) => {
      A.updateText(doc, ["text"], body);
      doc.updatedAt = this.#now();
    }, by);
    return toDetail(handle, readPlan(handle), this.isShared(handle.documentId));
  }

  /**
   * Writes the document and both indexes to storage now. Whoever reports a write as done to someone outside this
   * process (an MCP agent, a replay record) awaits this first: automerge-repo saves on a timer, and a crash before it
   * fires would lose a write already confirmed.
   */
  async persist(id: string): Promise<void> {
    await this.#repo.flush([id as DocumentId, ...this.#indexes.documentIds()]);
  }

  /** Resolves once the core's handle holds `heads` and they are flushed to storage. */
  async waitSaved(id: string, heads: string[]): Promise<SaveReceipt> {
    const wanted = toHexHeads(heads);
    const handle = await this.#find(id);
    if (!A.hasHeads(handle.doc(), wanted)) {
      await new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!A.hasHeads(handle.doc(), wanted)) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new ChopinError("timeout", "The app has not received those changes yet.", { documentId: id }));
        }, this.#waitSavedTimeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          handle.off("heads-changed", check);
        };
        handle.on("heads-changed", check);
        check();
      });
    }
    await this.#repo.flush([handle.documentId]);
    return { documentId: handle.documentId, savedAt: this.#now() };
  }

  // ---- history ----

  async listVersions(id: string): Promise<VersionEntry[]> {
    const { handle } = await this.#load(id);
    return listVersionEntries(handle.doc());
  }

  async readVersion(id: string, versionId: string): Promise<VersionContent> {
    const { handle } = await this.#load(id);
    const span = findVersion(handle.doc(), versionId);
    const { title, markdown } = contentAt(handle.doc(), span);
    return { id: span.id, title, markdown };
  }

  /** ONE new change making title and text equal that version; history keeps everything in between. */
  async restoreVersion(id: string, versionId: string): Promise<DocumentDetail> {
    const { handle } = await this.#loadWritable(id);
    const { title, markdown } = contentAt(handle.doc(), findVersion(handle.doc(), versionId));
    const restoredTitle = normalizeTitle(title, handle.doc().title);
    this.#change(
      handle,
      (doc) => {
        A.updateText(doc, ["text"], markdown);
        if (doc.title !== restoredTitle) A.updateText(doc, ["title"], restoredTitle);
        doc.updatedAt = this.#now();
      },
      undefined,
      restoreChangeMessage(versionId),
    );
    return toDetail(handle, readPlan(handle), this.isShared(handle.documentId));
  }

  // ---- internals ----

  #parseId(id: unknown): DocumentId {
    if (typeof id === "string" && id.length > MAX_DOCUMENT_ID_CHARS) {
      throw new ChopinError("invalid-input", `A document id is at most ${MAX_DOCUMENT_ID_CHARS} characters.`);
    }
    if (typeof id === "string") {
      try {
        const documentId = interpretAsDocumentId(id as DocumentId);
        if (isValidDocumentId(documentId)) return documentId;
      } catch {
        // refused below
      }
    }
    throw new ChopinError("invalid-input", "That is not a document id.");
  }

  async #find(id: unknown): Promise<PlanHandle> {
    const documentId = this.#parseId(id);
    if (this.#indexes.isIndex(documentId)) throw new ChopinError("not-found", "That id is not a plan document.");
    // Only ids this device knows are looked up: automerge-repo keeps an unavailable handle in its cache and then
    // fails every later flush()/shutdown(), so a guessed id must never reach repo.find.
    const cached = this.#repo.handles[documentId];
    if (!(cached?.isReady() || this.#indexes.knows(documentId))) {
      throw new ChopinError("not-found", "No document with that id is on this device.");
    }
    let handle: PlanHandle;
    try {
      handle = await this.#repo.find<PlanDocument>(documentId);
    } catch {
      throw new ChopinError("not-found", "No document with that id is available on this device.");
    }
    this.#watch?.track(handle as never);
    this.#snapshots.ensure(handle);
    return handle;
  }

  async #load(id: unknown): Promise<{ handle: PlanHandle; plan: PlanDocument }> {
    const handle = await this.#find(id);
    return { handle, plan: readPlan(handle) };
  }

  async #loadWritable(id: unknown): Promise<{ handle: PlanHandle; plan: PlanDocument }> {
    const loaded = await this.#load(id);
    if (loaded.plan.archivedAt !== null) {
      throw new ChopinError("document-archived", "This document is archived; restore it to edit.");
    }
    return loaded;
  }

  /** `by` names the agent asking (none: the person here); `message` overrides the change's message. */
  #change(handle: PlanHandle, fn: (doc: PlanDocument) => void, by?: AgentAuthor, message?: string): void {
    const now = this.#now();
    const tag = message ?? (by ? agentChangeMessage(by) : undefined);
    handle.change(
      (doc) => {
        fn(doc);
        stampAuthor(doc, this.#displayName());
      },
      { time: Math.floor(now / 1000), ...(tag === undefined ? {} : { message: tag }) },
    );
    // The watcher refreshes too, but a caller that lists right after writing must see its own write.
    this.#refreshIndexes(handle);
  }

  #refreshIndexes(handle: { documentId: DocumentId; doc(): unknown; isReady(): boolean }): boolean {
    // A handle that is still loading, unavailable or deleted has nothing to index (and doc() would throw).
    if (!handle.isReady()) return false;
    const doc = handle.doc() as { kind?: unknown } | undefined;
    // Only current-schema plans; a listener never migrates (that is a write) or touches other kinds of documents.
    if (doc?.kind !== "plan") return false;
    try {
      this.#indexes.refresh(handle.documentId, entryOf(parsePlan(doc)));
    } catch {
      // A damaged or newer-schema document stays listed with its last good entry.
    }
    return true;
  }

  #summaryOf(handle: PlanHandle): DocumentSummary {
    return toSummary(handle.documentId, readPlan(handle), this.isShared(handle.documentId));
  }

  /** Every change, local or remote: refresh index entries of plans, and report ids. */
  #onChange(handle: { documentId: DocumentId; doc(): unknown; isReady(): boolean }, patches: A.Patch[] | null): void {
    const id = handle.documentId;
    if (id === this.#indexes.local.documentId || id === this.#indexes.team?.documentId) {
      const indexHandle = handle as IndexHandle;
      this.#changed.add(patches ? idsFromIndexPatches(patches, indexHandle) : this.#indexes.list().keys());
      return;
    }
    if (this.#refreshIndexes(handle)) {
      this.#changed.add([id]);
      this.#snapshots.changed(handle);
    }
  }
}
