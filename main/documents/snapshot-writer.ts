/**
 * Keeps `document_snapshots` current from the document service's change watcher: a changed plan document gets its
 * snapshot rewritten at most once per SNAPSHOT_WRITE_INTERVAL_MS (a trailing write that reads the newest state, so
 * a burst of keystrokes costs one write), and every pending write happens on flush()/close().
 * What must stay true: nothing here runs inside a change (writes are deferred to a timer), a failed write is only a
 * slower open later, and a text too large for a bridge frame leaves no row rather than a truncated one. A write the
 * database refused (a full disk) is said once per run of failures and tried again every STORAGE_RETRY_MS, reading
 * the newest state: a stale row otherwise stayed until the plan's next change, and search kept answering from it.
 */
import { next as A } from "@automerge/automerge";
import type { Database } from "better-sqlite3";
import type { ChopinError } from "../../shared/errors.js";
import { MAX_SNAPSHOT_TEXT_BYTES, SNAPSHOT_WRITE_INTERVAL_MS, STORAGE_RETRY_MS } from "../util/limits.js";
import { FaultRun } from "../util/fault-run.js";
import { deleteSnapshot, readSnapshotHeads, sameHeads, writeSnapshot } from "./snapshot-store.js";

/** The part of a DocHandle the writer reads. */
export interface SnapshotSource {
  documentId: string;
  isReady(): boolean;
  doc(): unknown;
}

export interface SnapshotWriterOptions {
  db: Database;
  intervalMs?: number;
  now?: () => number;
  /** How long after a refused write it is tried again (STORAGE_RETRY_MS by default). */
  retryMs?: number;
  /** Hears the first refused write of each run of them. */
  onFault?: (failure: ChopinError) => void;
}

export class SnapshotWriter {
  readonly #db: Database;
  readonly #intervalMs: number;
  readonly #retryMs: number;
  /** A refused write is said once per run of them. */
  readonly #faults: FaultRun;
  readonly #now: () => number;
  readonly #pending = new Map<string, { source: SnapshotSource; timer: ReturnType<typeof setTimeout> }>();
  #closed = false;

  constructor(options: SnapshotWriterOptions) {
    this.#db = options.db;
    this.#intervalMs = options.intervalMs ?? SNAPSHOT_WRITE_INTERVAL_MS;
    this.#retryMs = options.retryMs ?? STORAGE_RETRY_MS;
    this.#faults = new FaultRun(options.onFault);
    this.#now = options.now ?? Date.now;
  }

  /** The document changed: its snapshot is written within the interval (coalescing every change until then). */
  changed(source: SnapshotSource): void {
    if (this.#closed) return;
    const pending = this.#pending.get(source.documentId);
    if (pending) {
      pending.source = source;
      return;
    }
    this.#schedule(source, this.#intervalMs);
  }

  #schedule(source: SnapshotSource, delayMs: number): void {
    const timer = setTimeout(() => this.#writePending(source.documentId), delayMs);
    timer.unref?.();
    this.#pending.set(source.documentId, { source, timer });
  }

  /** A document was just loaded: schedule a write when its row is missing or shows other heads. */
  ensure(source: SnapshotSource): void {
    if (this.#closed || this.#pending.has(source.documentId) || !source.isReady()) return;
    try {
      const stored = readSnapshotHeads(this.#db, source.documentId);
      if (stored && sameHeads(stored, A.getHeads(source.doc() as A.Doc<unknown>))) return;
    } catch {
      // An unreadable row is rewritten below.
    }
    this.changed(source);
  }

  /** The document was deleted from this device: its text must not outlive it. */
  forget(documentId: string): void {
    const pending = this.#pending.get(documentId);
    if (pending) clearTimeout(pending.timer);
    this.#pending.delete(documentId);
    this.#guard(() => deleteSnapshot(this.#db, documentId));
  }

  /** Writes `documentId`'s pending snapshot now, if one is pending (before its handle is let go: plan-release.ts). */
  writeNow(documentId: string): void {
    this.#writePending(documentId);
  }

  /** Writes every pending snapshot now. */
  flush(): void {
    for (const id of [...this.#pending.keys()]) this.#writePending(id);
  }

  /** Flushes, then ignores later changes (the database is about to close); a write refused now is not retried. */
  close(): void {
    this.#closed = true;
    this.flush();
  }

  /** Ids with a write scheduled (for tests and diagnostics). */
  pendingIds(): string[] {
    return [...this.#pending.keys()];
  }

  #writePending(documentId: string): void {
    const pending = this.#pending.get(documentId);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.#pending.delete(documentId);
    const { source } = pending;
    // A handle that was deleted or unloaded meanwhile has nothing to show.
    if (!source.isReady()) return;
    const doc = source.doc() as { kind?: unknown; title?: unknown; text?: unknown } | undefined;
    if (doc?.kind !== "plan" || typeof doc.text !== "string" || typeof doc.title !== "string") return;
    const { title, text } = doc;
    const heads = A.getHeads(doc as A.Doc<unknown>);
    const refused = this.#guard(() => {
      if (Buffer.byteLength(text, "utf8") > MAX_SNAPSHOT_TEXT_BYTES) deleteSnapshot(this.#db, documentId);
      else writeSnapshot(this.#db, { documentId, heads, title, text, savedAt: this.#now() });
    });
    // Read again at the retry, so it writes the newest state (later changes coalesce into it).
    if (refused && !this.#closed && !this.#pending.has(documentId)) this.#schedule(source, this.#retryMs);
  }

  /** Runs a write; true when the database refused it (a SQLite or system error, which a retry may get past). */
  #guard(write: () => void): boolean {
    try {
      write();
      this.#faults.worked();
      return false;
    } catch (error) {
      // The snapshot is a cache (e.g. the database closed under a late timer): the next open just loads.
      if (typeof (error as { code?: unknown } | null)?.code !== "string") return false;
      this.#faults.refused(error);
      return true;
    }
  }
}
