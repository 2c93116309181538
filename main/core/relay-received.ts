/**
 * What the relay is known to hold besides its acknowledgements: the changes it sent this device on the fast path. The
 * sync indicator counts changes the relay's acknowledged heads do not cover, and those heads arrive only with the
 * paced sync rounds (FAST_PATH_SYNC_INTERVAL_MS), so for up to a round a teammate's changes this device had just
 * received were counted as its own "sending N changes" (UX audit). Heads of what the relay sent close that gap.
 *
 * What must stay true: only hashes of changes this Repo received from the relay and applied are kept (the relay holds
 * each, and every change it depends on); per document at most RELAY_RECEIVED_HEADS_KEPT, the newest, so the memory
 * is bounded (an older one forgotten only makes the count wait for the next acknowledgement, as before).
 */
import { RELAY_RECEIVED_HEADS_KEPT } from "../../shared/limits.js";

export class RelayReceived {
  readonly #byDocument = new Map<string, string[]>();

  note(documentId: string, hashes: readonly string[]): void {
    const kept = this.#byDocument.get(documentId) ?? [];
    kept.push(...hashes);
    this.#byDocument.set(documentId, kept.length > RELAY_RECEIVED_HEADS_KEPT ? kept.slice(-RELAY_RECEIVED_HEADS_KEPT) : kept);
  }

  /** Hashes of changes the relay holds for `documentId`, as far as its own deliveries tell. */
  heads(documentId: string): readonly string[] {
    return this.#byDocument.get(documentId) ?? [];
  }

  /** Another relay (or none): what the last one sent says nothing about the next. */
  clear(): void {
    this.#byDocument.clear();
  }
}
