/**
 * The save indicator's truth: "Saved" is shown only after the core confirmed (api.waitSaved) that the latest heads
 * of this window's document are on disk. One confirmation is in flight at a time; when it returns and the heads
 * moved meanwhile, the newest heads are asked for next. A failed confirmation is shown and retried, never hidden:
 * the failure stays shown through later edits until a confirmation works.
 * Confirmations begin at most once per SAVE_CONFIRM_MIN_GAP_MS: each one makes the core flush to disk, and with a
 * fast core "the newest heads next" was one call and one flush per keystroke (audit: 202 for 200 keys typed).
 * Every confirmation is also reported as such (onConfirmed), so the window outbox can drop what is on disk.
 */
import type { DocumentId, SaveReceipt } from "../../../shared/api.js";
import { SAVE_CONFIRM_RETRY_MS } from "../limits.js";
import { describeError } from "./describe-error.js";

/**
 * The failure shown while the window's link to the core is down: the bridge's own sentence ("nothing was changed,
 * try again") fits a click, not typing, which is kept (replica/outbox-*.ts) and must not be typed again.
 */
export const SAVE_WAITING_FOR_CORE = "Chopin's core cannot be reached; your edits are kept and will be saved once it is back.";

const LINK_DOWN = new Set(["core-unavailable", "core-unreachable"]);

/**
 * The least time between the starts of two confirmations: "Saved" comes at most this much later after typing stops,
 * while typing costs the core a few flushes a second instead of one per key.
 */
export const SAVE_CONFIRM_MIN_GAP_MS = 250;

export type SaveState =
  | { kind: "unknown" }
  /** The document is shown from its snapshot, read-only, while this window loads it. */
  | { kind: "opening" }
  | { kind: "saving" }
  | { kind: "saved"; at: number }
  | { kind: "failed"; message: string };

export interface SaveTrackerOptions {
  documentId: DocumentId;
  waitSaved: (id: DocumentId, heads: string[]) => Promise<SaveReceipt>;
  onState: (state: SaveState) => void;
  /** Every confirmation, even of heads that are no longer the latest (the window outbox keeps what follows them). */
  onConfirmed?: (heads: string[]) => void;
  retryMs?: number;
  /** Defaults to SAVE_CONFIRM_MIN_GAP_MS. */
  minGapMs?: number;
}

export class SaveTracker {
  #latest: string[] | null = null;
  #inFlight = false;
  #stopped = false;
  #retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** Running from the start of a confirmation for the minimum gap; the next one waits for it. */
  #gapTimer: ReturnType<typeof setTimeout> | null = null;
  /** The heads the last confirmation asked for (the same array as #latest while nothing newer came). */
  #asked: string[] | null = null;
  #state: SaveState = { kind: "unknown" };
  constructor(private readonly options: SaveTrackerOptions) {}

  get state(): SaveState {
    return this.#state;
  }

  /** The document now has these heads (after a local or remote change); confirm they reach disk. */
  headsChanged(heads: string[]): void {
    if (this.#stopped) return;
    this.#latest = [...heads];
    // After a failure, "Not saved yet" stays true until a confirmation works: new edits are not saved either, and
    // none is even asked for before the retry (UX audit: typing while the core was away showed "Saving…" for good).
    if (this.#state.kind !== "saving" && this.#state.kind !== "failed") this.#set({ kind: "saving" });
    this.#confirmIfIdle();
  }

  /** Asks for the newest heads unless a confirmation is in flight, a retry is set, or the gap has not passed. */
  #confirmIfIdle(): void {
    if (this.#stopped || this.#inFlight || this.#retryTimer || this.#gapTimer || this.#latest === this.#asked) return;
    void this.#confirm();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    if (this.#gapTimer) clearTimeout(this.#gapTimer);
  }

  #set(state: SaveState) {
    this.#state = state;
    if (!this.#stopped) this.options.onState(state);
  }

  async #confirm(): Promise<void> {
    const heads = this.#latest;
    if (!heads) return;
    this.#asked = heads;
    this.#inFlight = true;
    if (this.#gapTimer) clearTimeout(this.#gapTimer);
    this.#gapTimer = setTimeout(() => {
      this.#gapTimer = null;
      this.#confirmIfIdle();
    }, this.options.minGapMs ?? SAVE_CONFIRM_MIN_GAP_MS);
    try {
      const receipt = await this.options.waitSaved(this.options.documentId, heads);
      this.#inFlight = false;
      if (this.#stopped) return;
      this.options.onConfirmed?.(heads);
      // Newer heads came meanwhile: they are asked for once the gap has passed (at once if it has).
      if (this.#latest !== heads) return this.#confirmIfIdle();
      this.#set({ kind: "saved", at: receipt.savedAt });
    } catch (error) {
      this.#inFlight = false;
      if (this.#stopped) return;
      const code = (error as { code?: unknown } | null)?.code;
      this.#set({ kind: "failed", message: typeof code === "string" && LINK_DOWN.has(code) ? SAVE_WAITING_FOR_CORE : describeError(error) });
      this.#retryTimer = setTimeout(() => {
        this.#retryTimer = null;
        void this.#confirm();
      }, this.options.retryMs ?? SAVE_CONFIRM_RETRY_MS);
    }
  }
}
