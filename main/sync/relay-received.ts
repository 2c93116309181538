/**
 * What the relay is known to hold besides its acknowledgements: the changes it sent this device on the fast path. The
 * sync indicator counts changes the relay's acknowledged heads do not cover, and those heads arrive only with the
 * paced sync rounds (FAST_PATH_SYNC_INTERVAL_MS), so for up to a round a teammate's changes this device had just
 * received were counted as its own "sending N changes" (UX audit). Heads of what the relay sent close that gap.
 *
 * What must stay true: only hashes of changes this Repo received from the relay and applied are kept (the relay holds
 * each, and every change it depends on); per document at most RELAY_RECEIVED_HEADS_KEPT, the newest, so the memory
 * is bounded (an older one forgotten only makes the count wait for the next acknowledgement, as before); and a
 * document the Repo deletes (a plan deleted here, a refused import) loses its entry at once, so the map holds only
 * documents still on this device (resource audit: every deleted plan's entry stayed for the session).
 */
import type { Repo } from "@automerge/automerge-repo";
import { RELAY_RECEIVED_HEADS_KEPT } from "../util/limits.js";

export class RelayReceived {
  readonly #byDocument = new Map<string, string[]>();
  readonly #repo: Pick<Repo, "on" | "off">;
  readonly #onDeleted = ({ documentId }: { documentId: string }) => void this.#byDocument.delete(documentId);

  /** `repo`: whose deletions end an entry (every way a document leaves the core for good goes through repo.delete). */
  constructor(repo: Pick<Repo, "on" | "off">) {
    this.#repo = repo;
    repo.on("delete-document", this.#onDeleted);
  }

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

  /** Stops following the Repo's deletions (the relay link closes). */
  dispose(): void {
    this.#repo.off("delete-document", this.#onDeleted);
    this.#byDocument.clear();
  }

  /** How many documents have an entry (tests check that a deleted one has none). */
  get size(): number {
    return this.#byDocument.size;
  }
}
