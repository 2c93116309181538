/**
 * Bounds relay memory: automerge-repo never unloads a document (automerge.md gotcha 6), so the relay unloads every
 * document nobody has sent a message about for idleMs, and past maxLoaded loaded documents also those idle for
 * minIdleMs, least recently touched first (a new member's prefetch asks for every team plan at once). Ready documents are flushed to storage, then removed from the
 * Repo's cache (they load again from storage on the next message); documents the relay never had ("unavailable",
 * e.g. requested by id but never created) are dropped, which removes nothing from storage because there is nothing.
 *
 * What must stay true: a document is flushed before it is unloaded, one touched during the flush stays loaded, and one
 * whose save failed (canUnload false) stays loaded;
 * unloading never writes to storage and frees the document's Automerge memory (shared/unload-document.ts).
 */
import type { DocumentId, Repo } from "@automerge/automerge-repo";
import { unloadDocument } from "../shared/unload-document.js";
import { RELAY_MAX_LOADED_DOCUMENTS, RELAY_MIN_IDLE_EVICT_MS } from "./limits.js";

export interface EvictorOptions {
  idleMs: number;
  sweepMs: number;
  now?: () => number;
  /** How long after unloading a document its Automerge memory is freed (default UNLOADED_DOC_FREE_DELAY_MS). */
  freeDelayMs?: number;
  /** Past this many loaded documents, those idle for minIdleMs go too (defaults: RELAY_MAX_LOADED_DOCUMENTS, RELAY_MIN_IDLE_EVICT_MS). */
  maxLoaded?: number;
  minIdleMs?: number;
  /** Whether a flushed document may leave memory (false while its save failed: memory holds its only copy here). */
  canUnload?: (documentId: string) => boolean;
  /** Told after a document left memory. */
  onUnloaded?: (documentId: string) => void;
}

export class DocumentEvictor {
  readonly #repo: Repo;
  readonly #idleMs: number;
  readonly #sweepMs: number;
  readonly #now: () => number;
  readonly #freeDelayMs: number | undefined;
  readonly #maxLoaded: number;
  readonly #minIdleMs: number;
  readonly #canUnload: (documentId: string) => boolean;
  readonly #onUnloaded: (documentId: string) => void;
  readonly #lastTouched = new Map<string, number>();
  #timer: NodeJS.Timeout | null = null;
  #sweeping: Promise<number> | null = null;
  /** Documents unloaded since start, for health and tests. */
  evicted = 0;

  constructor(repo: Repo, options: EvictorOptions) {
    this.#repo = repo;
    this.#idleMs = options.idleMs;
    this.#sweepMs = options.sweepMs;
    this.#now = options.now ?? Date.now;
    this.#freeDelayMs = options.freeDelayMs;
    this.#maxLoaded = options.maxLoaded ?? RELAY_MAX_LOADED_DOCUMENTS;
    this.#minIdleMs = options.minIdleMs ?? RELAY_MIN_IDLE_EVICT_MS;
    this.#canUnload = options.canUnload ?? (() => true);
    this.#onUnloaded = options.onUnloaded ?? (() => undefined);
  }

  touch(documentId: string): void {
    this.#lastTouched.set(documentId, this.#now());
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.sweep().catch(() => undefined), this.#sweepMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#sweeping?.catch(() => undefined);
  }

  /** Unloads every idle document; returns how many. Concurrent calls share one sweep. */
  sweep(): Promise<number> {
    if (!this.#sweeping) {
      this.#sweeping = this.#sweepOnce().finally(() => (this.#sweeping = null));
    }
    return this.#sweeping;
  }

  async #sweepOnce(): Promise<number> {
    let count = 0;
    const handles = this.#repo.handles;
    // Touches for documents that are not loaded (a message refused before loading) must not accumulate.
    for (const id of [...this.#lastTouched.keys()]) if (!handles[id as DocumentId]) this.#lastTouched.delete(id);
    const crowded = this.#crowded(Object.keys(handles));
    for (const [id, handle] of Object.entries(handles)) {
      const last = this.#lastTouched.get(id);
      // A document loaded without any message (e.g. created by the relay itself) starts its idle clock now.
      if (last === undefined) {
        this.touch(id);
        continue;
      }
      const idleEnough = crowded.has(id) ? this.#minIdleMs : this.#idleMs;
      if (this.#now() - last < idleEnough) continue;
      if (handle.isReady()) {
        await this.#repo.flush([id as DocumentId]);
        if (this.#now() - (this.#lastTouched.get(id) ?? 0) < idleEnough || !handle.isReady()) continue;
        // A save that failed leaves memory as the relay's only copy of the latest changes: keep it until one succeeds.
        if (!this.#canUnload(id)) continue;
        // Listeners detached first (else an emptied doc is saved over the stored one), memory freed (unload-document.ts).
        await unloadDocument(this.#repo, handle, this.#freeDelayMs);
        this.#onUnloaded(id);
      } else if (handle.isUnavailable()) {
        this.#repo.delete(id as DocumentId);
      } else {
        // loading or requesting: a sync is in flight; look again next sweep.
        continue;
      }
      this.#lastTouched.delete(id);
      this.evicted++;
      count++;
    }
    return count;
  }

  /**
   * Past maxLoaded: the least recently touched documents that have been idle for minIdleMs but not yet idleMs, as many
   * as it takes to get back to maxLoaded (those idle for idleMs go anyway).
   */
  #crowded(loaded: string[]): Set<string> {
    const now = this.#now();
    const expired = loaded.filter((id) => now - (this.#lastTouched.get(id) ?? now) >= this.#idleMs).length;
    const over = loaded.length - expired - this.#maxLoaded;
    if (over <= 0) return new Set();
    const candidates = loaded
      .map((id) => ({ id, idle: now - (this.#lastTouched.get(id) ?? now) }))
      .filter(({ idle }) => idle >= this.#minIdleMs && idle < this.#idleMs)
      .sort((x, y) => y.idle - x.idle);
    return new Set(candidates.slice(0, over).map(({ id }) => id));
  }
}
