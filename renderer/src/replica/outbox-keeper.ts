/**
 * Keeps one open document's unconfirmed edits in the window outbox (outbox-store.ts) while the core does not confirm
 * them: a core that is down, restarted (its new launch refuses this page's secret), or a window about to close.
 * The save tracker tells it which heads the core confirmed on disk; everything after those is "unconfirmed".
 * What must stay true:
 * - Cheap while the core confirms: nothing is encoded unless OUTBOX_WRITE_DELAY_MS passed with unconfirmed changes
 *   and no confirmation; a page about to go away (pagehide, unmount) writes at once.
 * - The stored entry always holds every change after the last confirmed heads (a later write replaces it with a
 *   superset, a confirmation of the newest heads removes it); the confirmed heads live with the handle, so a
 *   document closed and reopened in the same window does not forget edits kept before.
 * - Edits that cannot be kept (past a bound, or the browser refuses) are said in words, never dropped silently.
 */
import { next as A } from "@automerge/automerge";
import { changesSince } from "../../../shared/automerge-changes.js";
import { decodeHeads, type DocHandle, type UrlHeads } from "@automerge/automerge-repo";
import { ChopinError } from "../../../shared/errors.js";
import { OUTBOX_WRITE_DELAY_MS } from "../limits.js";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import { bytesToBase64 } from "./base64.js";
import type { OutboxEntry, OutboxStore, StoredEntry } from "./outbox-store.js";

/** Hex heads the core last confirmed for a handle, shared by every keeper of that handle in this window. */
const confirmedByHandle = new WeakMap<object, string[]>();

export interface OutboxKeeperOptions {
  handle: DocHandle<PlanDocument>;
  store: OutboxStore;
  windowId: string;
  /** A sentence when some unconfirmed edits cannot be kept; null once they can again. */
  onProblem?: (message: string | null) => void;
  /** Asks the core to confirm heads (hex) on disk; used to clear what a closing keeper wrote. */
  waitSaved?: (heads: string[]) => Promise<unknown>;
  /** Where "pagehide" is heard (the window); null: nowhere (tests). */
  page?: Pick<Window, "addEventListener" | "removeEventListener"> | null;
  delayMs?: number;
  now?: () => number;
}

export class OutboxKeeper {
  readonly #o: OutboxKeeperOptions;
  readonly #delayMs: number;
  readonly #now: () => number;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #lastConfirmAt = Number.NEGATIVE_INFINITY;
  #problem: string | null = null;
  #stopped = false;
  /** Set while the core cannot confirm: changes are kept at once. */
  #writeThrough = false;
  /** False only when this window's entry for the document is known to be absent (saves a storage call per save). */
  #mayHaveEntry: boolean;
  readonly #page: Pick<Window, "addEventListener" | "removeEventListener"> | null;
  readonly #onPageHide = () => this.flush();

  constructor(options: OutboxKeeperOptions) {
    this.#o = options;
    this.#delayMs = options.delayMs ?? OUTBOX_WRITE_DELAY_MS;
    this.#now = options.now ?? (() => Date.now());
    // The handle came from the core: what it held when first bound is the core's.
    if (!confirmedByHandle.has(options.handle)) confirmedByHandle.set(options.handle, A.getHeads(options.handle.doc()));
    const page = options.page === undefined ? (typeof window === "undefined" ? null : window) : options.page;
    page?.addEventListener("pagehide", this.#onPageHide);
    this.#page = page;
    this.#mayHaveEntry = options.store.get(options.handle.documentId, options.windowId) !== null;
  }

  /** The hex heads the core last confirmed for this document in this window. */
  get confirmedHeads(): string[] {
    return confirmedByHandle.get(this.#o.handle)!;
  }

  /** The document changed (a keystroke, or a change from the core): keep it if the core does not confirm it soon. */
  headsChanged(): void {
    // Armed already: the timer looks at the document when it fires (one check per delay, not per keystroke).
    if (this.#stopped || this.#timer || this.#upToDate()) return;
    this.#arm(this.#writeThrough ? 0 : this.#delayMs);
  }

  /** The core confirmed these heads (UrlHeads, as the handle gives them) on disk. */
  confirmed(heads: string[]): void {
    if (this.#stopped) return;
    const hex = decodeHeads(heads as UrlHeads);
    confirmedByHandle.set(this.#o.handle, hex);
    this.#lastConfirmAt = this.#now();
    this.#writeThrough = false;
    if (this.#upToDate()) this.#clear();
  }

  /**
   * The core could not confirm (it is down or unreachable): keep what is unconfirmed now, and every change from here
   * at once rather than after the delay, until a confirmation comes. The page cannot wait for this host when it goes
   * away, so what is kept must already be kept.
   */
  confirmationFailed(): void {
    if (this.#stopped) return;
    this.#writeThrough = true;
    this.flush();
  }

  /** Writes the unconfirmed edits now (the page is going away). */
  flush(): StoredEntry | null {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    return this.#write();
  }

  /** Flushes, then stops; what it wrote is cleared once the core confirms it (when waitSaved was given). */
  stop(): void {
    if (this.#stopped) return;
    const written = this.flush();
    this.#stopped = true;
    this.#page?.removeEventListener("pagehide", this.#onPageHide);
    if (written && this.#o.waitSaved) {
      this.#o.waitSaved(written.entry.heads).then(
        () => this.#o.store.removeIfUnchanged(written),
        // Not confirmed (core down, or gone): the entry stays for the next window that reaches a core.
        () => undefined,
      );
    }
  }

  #upToDate(): boolean {
    return sameHeads(A.getHeads(this.#o.handle.doc()), this.confirmedHeads);
  }

  #arm(ms: number): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (this.#stopped || this.#upToDate()) return;
      // A confirmation came within the delay: the core is keeping up, so nothing needs encoding yet.
      const since = this.#now() - this.#lastConfirmAt;
      if (!this.#writeThrough && since < this.#delayMs) return this.#arm(this.#delayMs - since);
      this.#write();
    }, ms);
  }

  #clear(): void {
    if (this.#mayHaveEntry) this.#o.store.remove(this.#o.handle.documentId, this.#o.windowId);
    this.#mayHaveEntry = false;
    this.#say(null);
  }

  #write(): StoredEntry | null {
    if (this.#upToDate()) {
      this.#clear();
      return null;
    }
    const doc = this.#o.handle.doc();
    const base = {
      documentId: this.#o.handle.documentId,
      windowId: this.#o.windowId,
      title: doc.title || "Untitled",
      heads: A.getHeads(doc),
      writtenAt: this.#now(),
    };
    const asChanges: OutboxEntry = { ...base, changes: changesSince(doc, this.confirmedHeads).map(bytesToBase64) };
    try {
      return this.#put(asChanges);
    } catch (error) {
      if (!(error instanceof ChopinError) || error.code !== "too-large") return this.#cannotKeep(base.title, error);
    }
    // Many small changes encode larger than the document saved whole (columnar, compressed).
    try {
      return this.#put({ ...base, document: bytesToBase64(A.save(doc)) });
    } catch (error) {
      return this.#cannotKeep(base.title, error);
    }
  }

  #put(entry: OutboxEntry): StoredEntry | null {
    this.#o.store.put(entry);
    this.#mayHaveEntry = true;
    this.#say(null);
    return this.#o.store.get(entry.documentId, entry.windowId);
  }

  #cannotKeep(title: string, error: unknown): null {
    const reason = error instanceof ChopinError ? error.message : "This browser refused to store them.";
    const earlier = this.#o.store.get(this.#o.handle.documentId, this.#o.windowId) !== null;
    this.#say(
      `Chopin cannot confirm your latest edits to “${title}” and this browser cannot keep them for you: ${reason} ` +
        `Keep this window open until Chopin is back — it still holds them${earlier ? " (the edits kept earlier stay stored)" : ""}.`,
    );
    return null;
  }

  #say(message: string | null): void {
    if (message === this.#problem) return;
    this.#problem = message;
    this.#o.onProblem?.(message);
  }
}

export function sameHeads(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join(",") === [...b].sort().join(",");
}
