/**
 * The save indicator's truth: "Saved" is shown only after the core confirmed (api.waitSaved) that the latest heads
 * of this window's document are on disk. One confirmation is in flight at a time; when it returns and the heads
 * moved meanwhile, the newest heads are asked for next. A failed confirmation is shown and retried, never hidden:
 * the failure stays shown through later edits until a confirmation works.
 * Every confirmation is also reported as such (onConfirmed), so the window outbox can drop what is on disk.
 */
import type { DocumentId, SaveReceipt } from "../../../shared/api.js";
import { SAVE_CONFIRM_RETRY_MS } from "../../../shared/limits.js";
import { describeError } from "./describe-error.js";

/**
 * The failure shown while the window's link to the core is down: the bridge's own sentence ("nothing was changed,
 * try again") fits a click, not typing, which is kept (replica/outbox-*.ts) and must not be typed again.
 */
export const SAVE_WAITING_FOR_CORE = "Chopin's core cannot be reached; your edits are kept and will be saved once it is back.";

const LINK_DOWN = new Set(["core-unavailable", "core-unreachable"]);

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
}

export class SaveTracker {
  #latest: string[] | null = null;
  #inFlight = false;
  #stopped = false;
  #retryTimer: ReturnType<typeof setTimeout> | null = null;
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
    if (!this.#inFlight && !this.#retryTimer) void this.#confirm();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
  }

  #set(state: SaveState) {
    this.#state = state;
    if (!this.#stopped) this.options.onState(state);
  }

  async #confirm(): Promise<void> {
    const heads = this.#latest;
    if (!heads) return;
    this.#inFlight = true;
    try {
      const receipt = await this.options.waitSaved(this.options.documentId, heads);
      this.#inFlight = false;
      if (this.#stopped) return;
      this.options.onConfirmed?.(heads);
      if (this.#latest !== heads) return void this.#confirm();
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
