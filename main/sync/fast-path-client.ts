/**
 * The client half of the change fast path (see shared/sync-wire.ts): watches the Repo's documents and, the moment a
 * document that already syncs with the relay gets new changes (a local edit, or a renderer's edit arriving over its
 * MessageChannel), sends exactly those change bytes to the relay in one "changes" frame; applies the "changes" frames
 * the relay forwards from other members. Exists because automerge-repo throttles sync per document (~100 ms) and
 * needs a round trip per hop (automerge.md gotcha 2): typing through the relay would lag by 70-130 ms.
 *
 * What must stay true:
 * - A document goes out on the fast path only after this Repo itself sent a sync/request message for it to the relay
 *   on the current connection: the fast path never widens what the Repo's shareConfig shares (private documents
 *   never reach the relay), and it is reset on every new connection.
 * - It only ever adds: the sync protocol keeps running underneath and repairs anything the fast path drops (a frame
 *   lost to a reconnect, a document not loaded here). While the fast path carries every change, that protocol is
 *   paced down to FAST_PATH_SYNC_INTERVAL_MS (shared/sync-pacing.ts), so whatever this side knows the fast path could
 *   not carry asks for a sync round at once: a batch above FAST_PATH_MAX_BYTES, or a relay batch whose dependencies
 *   are missing here (Automerge queues it until they arrive).
 * - Changes applied from a relay frame are not sent back; nothing here throws into the Repo or the socket.
 * - A relay batch for a document this Repo holds is applied, never dropped: both sides note fast-path changes as
 *   delivered in their sync states (notePeerHas), so the protocol would not carry a dropped one again. A batch for a
 *   document still arriving waits until it is ready.
 */
import * as A from "@automerge/automerge";
import type { DocHandle, DocHandleChangePayload, DocumentId, Repo } from "@automerge/automerge-repo";
import { FAST_PATH_MAX_BYTES } from "../../shared/limits.js";
import { changeHashes } from "../../shared/node/change-hash.js";
import { batchBytes } from "../../shared/sync-wire.js";

/** The changes as one fast-path batch, or null when there are none or they total more than maxBytes. */
export function fastPathBatch(changes: Uint8Array[], maxBytes = FAST_PATH_MAX_BYTES): Uint8Array[] | null {
  const total = batchBytes(changes);
  return total === 0 || total > maxBytes ? null : changes;
}

export interface FastPathStats {
  /** Changes sent to the relay on the fast path. */
  sentChanges: number;
  /** Relay frames that changed a local document. */
  appliedFrames: number;
  /** Sync rounds asked for because the fast path could not carry something (too big, missing dependencies). */
  syncRounds: number;
}

type ChangeListener = (payload: DocHandleChangePayload<unknown>) => void;

export class ClientFastPath {
  readonly stats: FastPathStats = { sentChanges: 0, appliedFrames: 0, syncRounds: 0 };
  readonly #send: (documentId: string, changes: Uint8Array[]) => boolean;
  readonly #syncNow: (repo: Repo, documentId: string) => void;
  readonly #notePeerHas: (repo: Repo, documentId: string, hashes: readonly string[]) => void;
  #repo: Repo | null = null;
  /** Documents this Repo sent sync/request messages for to the relay on the current connection. */
  readonly #relayDocs = new Set<string>();
  readonly #listeners = new Map<DocHandle<unknown>, ChangeListener>();
  /** The document a relay frame is being applied to (its change event must not echo back). */
  #applying: string | null = null;
  /**
   * Per document with fresh local edits: its handle and the document before the first of them. Flushed once per
   * microtask checkpoint as one frame (one getChanges for the whole burst).
   */
  readonly #pending = new Map<string, { handle: DocHandle<unknown>; before: A.Doc<unknown> }>();
  /** Relay batches per document waiting for the same checkpoint: the frames of one socket read apply as one update. */
  readonly #incoming = new Map<string, Uint8Array[]>();
  #flushQueued = false;

  /**
   * `send` delivers one "changes" frame to the relay and says whether it could; `sync` runs a sync-protocol round with
   * the relay for the document at once (syncNow) or records in the sync state that the relay has these changes
   * (notePeerHas, shared/sync-pacing.ts).
   */
  constructor(
    send: (documentId: string, changes: Uint8Array[]) => boolean,
    sync: {
      syncNow: (repo: Repo, documentId: string) => void;
      notePeerHas: (repo: Repo, documentId: string, hashes: readonly string[]) => void;
    },
  ) {
    this.#send = send;
    this.#syncNow = sync.syncNow;
    this.#notePeerHas = sync.notePeerHas;
  }

  get attached(): boolean {
    return this.#repo !== null;
  }

  /**
   * Serves `repo` (one Repo at a time). A document is watched from the first sync message the Repo sends the relay
   * for it (automerge-repo 2.5 emits no event for new handles, and that message is the moment it becomes eligible).
   */
  attach(repo: Repo): void {
    if (this.#repo === repo) return;
    this.detach();
    this.#repo = repo;
  }

  detach(): void {
    if (!this.#repo) return;
    for (const [handle, listener] of this.#listeners) handle.off("change", listener);
    this.#listeners.clear();
    this.#repo = null;
  }

  /** A new connection: nothing is known to sync with the relay until the Repo says so again. */
  reset(): void {
    this.#relayDocs.clear();
  }

  /** Sees every message the Repo sends to the relay. */
  noteOutbound(type: string, documentId: string | undefined): void {
    if (documentId === undefined || (type !== "sync" && type !== "request") || this.#relayDocs.has(documentId)) return;
    this.#relayDocs.add(documentId);
    const handle = this.#repo?.handles[documentId as DocumentId];
    if (handle) this.#watch(handle as DocHandle<unknown>);
  }

  /**
   * Applies a relay-forwarded batch to a loaded document this Repo syncs with the relay; ignores anything else. Batches
   * that arrive together (one socket read) are applied together at the next microtask checkpoint.
   */
  receive(documentId: string, changes: Uint8Array[]): void {
    if (!this.#relayDocs.has(documentId)) return;
    const list = this.#incoming.get(documentId);
    if (list) list.push(...changes);
    else this.#incoming.set(documentId, [...changes]);
    this.#queueFlush();
  }

  #apply(documentId: string, changes: Uint8Array[]): void {
    const handle = this.#repo?.handles[documentId as DocumentId];
    if (!handle) return;
    if (!handle.isReady()) {
      // Never dropped: the relay noted these as delivered, so its sync protocol will not send them again. A document
      // still arriving (requested, loading) takes them once it is ready.
      void handle.whenReady().then(
        () => this.#apply(documentId, changes),
        () => undefined,
      );
      return;
    }
    const before = A.getHeads(handle.doc());
    this.#applying = documentId;
    try {
      handle.update((doc) => A.applyChanges(doc, changes)[0]);
    } catch {
      // A batch that does not apply is left to the sync protocol, which re-sends whatever is missing.
      return;
    } finally {
      this.#applying = null;
    }
    if (!sameHeads(before, A.getHeads(handle.doc()))) this.stats.appliedFrames++;
    // The relay sent these, so it has them: the protocol's next round need not carry them back.
    if (this.#repo) this.#notePeerHas(this.#repo, documentId, changeHashes(changes));
    if (A.getMissingDeps(handle.doc(), []).length > 0) this.#requestSync(documentId);
  }

  #requestSync(documentId: string): void {
    if (!this.#repo) return;
    this.stats.syncRounds++;
    this.#syncNow(this.#repo, documentId);
  }

  #watch(handle: DocHandle<unknown>): void {
    if (this.#listeners.has(handle)) return;
    const listener: ChangeListener = (payload) => this.#onChange(handle, payload);
    this.#listeners.set(handle, listener);
    handle.on("change", listener);
  }

  #onChange(handle: DocHandle<unknown>, payload: DocHandleChangePayload<unknown>): void {
    const documentId = handle.documentId;
    if (this.#applying === documentId || !this.#relayDocs.has(documentId)) return;
    // A document's first arrival (loaded or fetched whole) is not a fresh edit: the sync protocol carries it.
    if (this.#pending.has(documentId) || A.getHeads(payload.patchInfo.before).length === 0) return;
    this.#pending.set(documentId, { handle, before: payload.patchInfo.before });
    this.#queueFlush();
  }

  #queueFlush(): void {
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    // Edits made in one synchronous burst (a paste, an agent's multi-step change) cross the relay as one frame: one
    // apply there and at each reader instead of one per change, at no added latency.
    queueMicrotask(() => this.#flush());
  }

  /** Local edits go out before relay batches are applied, so the diff of a burst holds only this side's edits. */
  #flush(): void {
    this.#flushQueued = false;
    const pending = [...this.#pending];
    this.#pending.clear();
    for (const [documentId, { handle, before }] of pending) this.#sendBurst(documentId, handle, before);
    const incoming = [...this.#incoming];
    this.#incoming.clear();
    for (const [documentId, changes] of incoming) this.#apply(documentId, changes);
  }

  #sendBurst(documentId: string, handle: DocHandle<unknown>, before: A.Doc<unknown>): void {
    try {
      const changes = A.getChanges(before, handle.doc());
      const batch = fastPathBatch(changes);
      if (batch && this.#send(documentId, batch)) {
        this.stats.sentChanges += changes.length;
        if (this.#repo) this.#notePeerHas(this.#repo, documentId, changeHashes(batch));
      } else if (batch === null && changes.length > 0) this.#requestSync(documentId);
    } catch {
      // The sync protocol carries these changes anyway.
    }
  }
}

function sameHeads(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  return a.every((head, i) => head === b[i]);
}
