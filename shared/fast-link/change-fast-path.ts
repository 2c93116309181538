/**
 * One end of a change fast path between two Repos: watches this Repo's documents and, the moment a document the link
 * may carry gets new changes (a local edit, or changes arriving from any other peer), sends exactly those change
 * bytes to the other end in one batch; applies the batches the other end sends. Exists because automerge-repo
 * throttles sync per document (~100 ms) and needs a round trip per hop (automerge.md gotcha 2): typing through a
 * relay, or from a window to its core, would lag by 70-130 ms.
 *
 * One class serves every link: the app core's link to the relay (main/sync/relay-client-adapter.ts, through
 * main/sync/fast-path-client.ts), and both ends of each window <-> core link (fast-link-adapter.ts). A Repo may run
 * several at once (the core: one to the relay, one per window); each ignores only the changes it applied itself, so
 * a window's batch applied in the core still goes on to the relay and to the other windows, never back to its origin.
 *
 * What must stay true:
 * - A document rides the link only after a sync/request message for it crossed this link on the current connection,
 *   in the direction the owner says: outbound (this Repo asked: the relay client, a window) or inbound (the peer asked:
 *   the core's end of a window link). So the fast path never widens what shareConfig shares (private documents never
 *   reach the relay), and reset() on every new connection forgets it all.
 * - And only while the owner's share decision (mayCarry) allows it, asked for every batch in both directions: a
 *   document that stops being shared (a teammate removed it from the team's list) stops riding at once, not at the
 *   next reconnect, and is forgotten until a sync/request message for it crosses again.
 * - It only ever adds: the sync protocol keeps running underneath and repairs anything the fast path drops (a batch
 *   lost to a reconnect, a document not loaded here). While the fast path carries every change, that protocol is paced
 *   down to FAST_PATH_SYNC_INTERVAL_MS (shared/sync-pacing.ts), so whatever this side knows the fast path could not
 *   carry asks for a sync round at once: a batch above FAST_PATH_MAX_BYTES, or a received batch whose dependencies
 *   are missing here (Automerge queues it until they arrive).
 * - A received batch for a document this Repo syncs on the link is applied, never dropped: both sides note fast-path
 *   changes as delivered in their sync states (notePeerHas), so the protocol would not carry a dropped one again. A
 *   batch for a document still arriving waits until it is ready. Bytes that are not changes (hashes() gives null) are
 *   ignored; nothing here throws into the Repo or the transport.
 * - Environment-neutral (a window runs it): the change hash is injected.
 *
 * Cost: an Automerge apply costs about as much for one change as for dozens, so a document takes received batches at
 * most once per FAST_PATH_APPLY_MIN_INTERVAL_MS (a display frame): a batch arriving sooner after the last apply waits
 * for the rest of that interval with whatever else arrives. Typing (a key every 30 ms or more) never waits. An apply
 * also costs in proportion to the document's size, so after a slow one the next waits longer, keeping applies to
 * FAST_PATH_APPLY_BUSY_SHARE of the thread (at most FAST_PATH_APPLY_MAX_WAIT_MS).
 */
import { next as A } from "@automerge/automerge";
import type { DocHandle, DocumentId, Repo } from "@automerge/automerge-repo";
import { FAST_PATH_APPLY_BUSY_SHARE, FAST_PATH_APPLY_MAX_WAIT_MS, FAST_PATH_APPLY_MIN_INTERVAL_MS, FAST_PATH_MAX_BYTES } from "../limits.js";
import { spacingAfter, timed } from "../apply-spacing.js";
import { batchBytes } from "../sync-wire.js";

/** The changes as one fast-path batch, or null when there are none or they total more than maxBytes. */
export function fastPathBatch(changes: Uint8Array[], maxBytes = FAST_PATH_MAX_BYTES): Uint8Array[] | null {
  const total = batchBytes(changes);
  return total === 0 || total > maxBytes ? null : changes;
}

export interface FastPathStats {
  /** Changes sent to the other end on the fast path. */
  sentChanges: number;
  /** Received batches that changed a local document. */
  appliedFrames: number;
  /** Sync rounds asked for because the fast path could not carry something (too big, missing dependencies). */
  syncRounds: number;
}

export interface ChangeFastPathOptions {
  /** Delivers one batch to the other end; false when it could not (the link is gone). */
  send(documentId: string, changes: Uint8Array[]): boolean;
  /** Runs a sync-protocol round with the other end for the document at once (syncWithPeerNow). */
  syncNow(repo: Repo, documentId: string): void;
  /** Records in the sync state that the other end has these changes (notePeerHas, shared/sync-pacing.ts). */
  notePeerHas(repo: Repo, documentId: string, hashes: readonly string[]): void;
  /** Told the hashes of each batch received from the other end and applied (so the other end holds them). */
  received?(documentId: string, hashes: readonly string[]): void;
  /** Each change's hash, or null when one of them is not a well-formed Automerge change. */
  hashes(changes: readonly Uint8Array[]): string[] | null;
  /** A monotonic clock in ms that times applies (default performance.now; tests inject one). */
  now?: () => number;
  /** The share decision, asked for every batch sent or received: whether the document may cross now. Default: yes. */
  mayCarry?(documentId: string): boolean;
}

/**
 * How long after an apply began, which took `costMs`, the document's next apply may begin: a display frame at least,
 * and long enough that applies take at most FAST_PATH_APPLY_BUSY_SHARE of the thread, up to FAST_PATH_APPLY_MAX_WAIT_MS.
 */
export function applySpacing(costMs: number): number {
  return spacingAfter(costMs, {
    floorMs: FAST_PATH_APPLY_MIN_INTERVAL_MS,
    busyShare: FAST_PATH_APPLY_BUSY_SHARE,
    maxMs: FAST_PATH_APPLY_MAX_WAIT_MS,
  });
}

type HeadsListener = (payload: { doc: A.Doc<unknown> }) => void;
/** A watched handle's listener and the heads it last saw (the "before" of its next change). */
interface Watched {
  listener: HeadsListener;
  heads: A.Heads;
}
/** Received changes that passed the hash check (a batch that did not never joins others: it would sink them). */
interface Received {
  changes: Uint8Array[];
  hashes: string[];
}
type OpenDocListener = (event: { documentId: DocumentId }) => void;

export class ChangeFastPath {
  readonly stats: FastPathStats = { sentChanges: 0, appliedFrames: 0, syncRounds: 0 };
  readonly #options: ChangeFastPathOptions;
  #repo: Repo | null = null;
  #openDocListener: OpenDocListener | null = null;
  /** Documents whose sync/request messages crossed this link (in the owner's direction) on the current connection. */
  readonly #permitted = new Set<string>();
  /**
   * Watched handles. The fast path listens to "heads-changed", never "change": the patched DocHandle computes a
   * change's patches (A.diff, about what applying it costs) only for "change" listeners, and the fast path needs only
   * the change bytes, so a writer nobody else reads patches from pays for no diff.
   */
  readonly #watched = new Map<DocHandle<unknown>, Watched>();
  /** The document a received batch is being applied to (its heads change must not echo back). */
  #applying: string | null = null;
  /**
   * Per document with fresh changes: its handle and the heads before the first of them. Flushed once per microtask
   * checkpoint as one batch (one getChanges for the whole burst).
   */
  readonly #pending = new Map<string, { handle: DocHandle<unknown>; before: A.Heads }>();
  /** Received batches per document waiting for the same checkpoint: batches of one transport read apply as one. */
  readonly #incoming = new Map<string, Received>();
  /** Received batches for a permitted document whose handle this Repo has not made yet (see #apply). */
  readonly #awaitingHandle = new Map<string, Received>();
  /** Documents whose first change of the current turn already went out (the rest wait for the checkpoint). */
  readonly #sentThisTurn = new Set<string>();
  /** When each document last took received batches (Date.now()) and how long that took (ms), for applySpacing. */
  readonly #lastApplied = new Map<string, { at: number; costMs: number }>();
  /** Received batches waiting for their document's next apply, with the timer that applies them. */
  readonly #held = new Map<string, { received: Received; timer: ReturnType<typeof setTimeout> }>();
  #flushQueued = false;

  constructor(options: ChangeFastPathOptions) {
    this.#options = options;
  }

  get attached(): boolean {
    return this.#repo !== null;
  }

  /**
   * Serves `repo` (one Repo at a time). A document is watched from the first sync/request message for it on the link
   * (automerge-repo 2.5 emits no event for new handles); a handle made later, in answer to that message, is caught
   * when its synchronizer opens it for a peer ("open-doc").
   */
  attach(repo: Repo): void {
    if (this.#repo === repo) return;
    this.detach();
    this.#repo = repo;
    const listener: OpenDocListener = ({ documentId }) => this.#onOpenDoc(documentId);
    this.#openDocListener = listener;
    repo.synchronizer.on("open-doc", listener);
  }

  detach(): void {
    const repo = this.#repo;
    if (!repo) return;
    if (this.#openDocListener) repo.synchronizer.off("open-doc", this.#openDocListener);
    this.#openDocListener = null;
    for (const [handle, { listener }] of this.#watched) handle.off("heads-changed", listener);
    this.#watched.clear();
    this.#pending.clear();
    this.#sentThisTurn.clear();
    this.#incoming.clear();
    this.#awaitingHandle.clear();
    for (const { timer } of this.#held.values()) clearTimeout(timer);
    this.#held.clear();
    this.#lastApplied.clear();
    this.#repo = null;
  }

  /** A new connection: nothing is known to sync on the link until a sync/request message says so again. */
  reset(): void {
    this.#permitted.clear();
    this.#awaitingHandle.clear();
  }

  /** Sees every message this Repo sends on the link (the relay client's and a window's direction). */
  noteOutbound(type: string, documentId: string | undefined): void {
    this.#permit(type, documentId);
  }

  /** Sees every message the other end sends this Repo (the core's end of a window link). */
  noteInbound(type: string, documentId: string | undefined): void {
    this.#permit(type, documentId);
  }

  /** Whether `documentId` rides the link on the current connection (and the share decision allows it now). */
  carries(documentId: string): boolean {
    if (!this.#permitted.has(documentId)) return false;
    if (this.#options.mayCarry?.(documentId) ?? true) return true;
    this.#stopCarrying(documentId);
    return false;
  }

  /** The share decision refused the document: nothing of it crosses until a sync/request message permits it again. */
  #stopCarrying(documentId: string): void {
    this.#permitted.delete(documentId);
    this.#pending.delete(documentId);
    this.#incoming.delete(documentId);
    this.#awaitingHandle.delete(documentId);
    const held = this.#held.get(documentId);
    if (held) clearTimeout(held.timer);
    this.#held.delete(documentId);
    const handle = this.#repo?.handles[documentId as DocumentId] as DocHandle<unknown> | undefined;
    const watched = handle && this.#watched.get(handle);
    if (handle && watched) {
      handle.off("heads-changed", watched.listener);
      this.#watched.delete(handle);
    }
  }

  #permit(type: string, documentId: string | undefined): void {
    if (documentId === undefined || (type !== "sync" && type !== "request") || this.#permitted.has(documentId)) return;
    if (!(this.#options.mayCarry?.(documentId) ?? true)) return;
    this.#permitted.add(documentId);
    const handle = this.#repo?.handles[documentId as DocumentId];
    if (handle) this.#watch(handle as DocHandle<unknown>);
  }

  #onOpenDoc(documentId: string): void {
    if (!this.#permitted.has(documentId)) return;
    const handle = this.#repo?.handles[documentId as DocumentId];
    if (!handle) return;
    this.#watch(handle as DocHandle<unknown>);
    const waiting = this.#awaitingHandle.get(documentId);
    if (waiting) {
      this.#awaitingHandle.delete(documentId);
      this.#apply(documentId, waiting);
    }
  }

  /**
   * Applies a batch from the other end to a document this Repo syncs on the link; ignores anything else. Batches that
   * arrive together (one transport read) are applied together at the next microtask checkpoint.
   */
  receive(documentId: string, changes: Uint8Array[]): void {
    if (changes.length === 0 || !this.carries(documentId)) return;
    const hashes = this.#options.hashes(changes);
    // Bytes that are not changes: nothing to apply; the sync protocol carries whatever the other end really has.
    if (hashes === null) return;
    const list = this.#incoming.get(documentId);
    if (list) append(list, { changes, hashes });
    else this.#incoming.set(documentId, { changes: [...changes], hashes });
    this.#queueFlush();
  }

  #apply(documentId: string, received: Received): void {
    const repo = this.#repo;
    if (!repo || !this.carries(documentId)) return;
    const { changes, hashes } = received;
    const handle = repo.handles[documentId as DocumentId];
    if (!handle) {
      // The other end asked for this document a moment ago and the Repo is still making its handle: hold the batch
      // until the document's synchronizer opens it ("open-doc"). Bounded: a handle that never comes (access refused)
      // must not hold memory, and then there is nothing to apply to anyway.
      const list = this.#awaitingHandle.get(documentId) ?? { changes: [], hashes: [] };
      if (batchBytes(list.changes) + batchBytes(changes) <= FAST_PATH_MAX_BYTES) this.#awaitingHandle.set(documentId, append(list, received));
      return;
    }
    if (!handle.isReady()) {
      // Never dropped: the other end noted these as delivered, so its sync protocol will not send them again. A
      // document still arriving (requested, loading) takes them once it is ready.
      void handle.whenReady().then(
        () => this.#apply(documentId, received),
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
    // The other end sent these, so it has them: the protocol's next round need not carry them back.
    this.#options.notePeerHas(repo, documentId, hashes);
    this.#options.received?.(documentId, hashes);
    if (A.getMissingDeps(handle.doc(), []).length > 0) this.#requestSync(documentId);
  }

  #requestSync(documentId: string): void {
    if (!this.#repo) return;
    this.stats.syncRounds++;
    this.#options.syncNow(this.#repo, documentId);
  }

  #watch(handle: DocHandle<unknown>): void {
    if (this.#watched.has(handle)) return;
    // A handle not ready yet has no document: its first heads are its arrival, which starts from none.
    const watched: Watched = {
      heads: handle.isReady() ? A.getHeads(handle.doc()) : [],
      listener: ({ doc }) => {
        // Every heads change moves "before" on, the ones skipped below included (applies, arrivals).
        const before = watched.heads;
        watched.heads = A.getHeads(doc);
        this.#onHeadsChanged(handle, before);
      },
    };
    this.#watched.set(handle, watched);
    handle.on("heads-changed", watched.listener);
  }

  #onHeadsChanged(handle: DocHandle<unknown>, before: A.Heads): void {
    const documentId = handle.documentId;
    if (this.#applying === documentId || !this.carries(documentId)) return;
    // A document's first arrival (loaded or fetched whole) is not a fresh edit: the sync protocol carries it.
    if (this.#pending.has(documentId) || before.length === 0) return;
    if (!this.#sentThisTurn.has(documentId)) {
      // The first change of a turn goes out at once, from inside the heads-changed event: whatever else listens to the
      // document (the core's index, share checks, an editor) queued its own microtasks first, and a keystroke must not
      // wait behind them (measured 5-20 ms per core). The rest of a burst follows as one batch at the checkpoint.
      this.#sentThisTurn.add(documentId);
      this.#queueFlush();
      this.#sendBurst(documentId, handle, before);
      return;
    }
    this.#pending.set(documentId, { handle, before });
    this.#queueFlush();
  }

  #queueFlush(): void {
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    // Edits made in one synchronous burst (a paste, an agent's multi-step change) cross as at most two batches (the
    // first change, then the rest): one apply at each reader instead of one per change, at no added latency.
    queueMicrotask(() => this.#flush());
  }

  /** Fresh changes go out before received batches are applied, so a burst's diff holds none of the other end's. */
  #flush(): void {
    this.#flushQueued = false;
    const pending = [...this.#pending];
    this.#pending.clear();
    for (const [documentId, { handle, before }] of pending) this.#sendBurst(documentId, handle, before);
    this.#sentThisTurn.clear();
    const incoming = [...this.#incoming];
    this.#incoming.clear();
    for (const [documentId, received] of incoming) this.#applyOrHold(documentId, received);
  }

  /** Applies now, or holds the batch until applySpacing() after the document's last apply began. */
  #applyOrHold(documentId: string, received: Received): void {
    const held = this.#held.get(documentId);
    if (held) {
      append(held.received, received);
      return;
    }
    const last = this.#lastApplied.get(documentId);
    const spacing = applySpacing(last?.costMs ?? 0);
    const wait = last === undefined ? 0 : last.at + spacing - Date.now();
    if (wait <= 0) return this.#applyNow(documentId, received);
    // Bounded by the spacing, so a clock that jumps back never holds a batch longer.
    const timer = setTimeout(() => {
      const due = this.#held.get(documentId);
      if (!due) return;
      this.#held.delete(documentId);
      this.#applyNow(documentId, due.received);
    }, Math.min(wait, spacing));
    this.#held.set(documentId, { received, timer });
  }

  #applyNow(documentId: string, received: Received): void {
    const at = Date.now();
    const costMs = timed(() => this.#apply(documentId, received), this.#options.now);
    this.#lastApplied.set(documentId, { at, costMs });
  }

  #sendBurst(documentId: string, handle: DocHandle<unknown>, before: A.Heads): void {
    const repo = this.#repo;
    if (!repo || !this.carries(documentId)) return;
    try {
      // The changes since `before`: what A.getChanges(beforeDoc, doc) returns, from the heads alone.
      const changes = A.getBackend(handle.doc()).getChanges(before);
      const batch = fastPathBatch(changes);
      if (batch && this.#options.send(documentId, batch)) {
        this.stats.sentChanges += changes.length;
        const hashes = this.#options.hashes(batch);
        if (hashes) this.#options.notePeerHas(repo, documentId, hashes);
      } else if (batch === null && changes.length > 0) this.#requestSync(documentId);
    } catch {
      // The sync protocol carries these changes anyway.
    }
  }
}

/** Adds `more` to `into` (in place) and returns it. */
function append(into: Received, more: Received): Received {
  into.changes.push(...more.changes);
  into.hashes.push(...more.hashes);
  return into;
}

function sameHeads(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  return a.every((head, i) => head === b[i]);
}
