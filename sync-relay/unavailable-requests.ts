/**
 * Bounds what requests for documents the relay does not have may cost it. automerge-repo makes a handle for every
 * document id a peer asks about and keeps it loaded after answering "doc-unavailable" (until eviction, 60 s later),
 * so a client asking for random ids grew relay memory without bound. Here the relay drops such a handle as soon as
 * it has answered, and a session that asks for more than RELAY_MAX_UNAVAILABLE_DOCS_PER_SESSION distinct documents
 * the relay does not have is closed with a reason.
 *
 * What must stay true: only a handle still "unavailable" when dropped is dropped (one that became ready meanwhile
 * holds data); dropping goes through repo.delete, as eviction does for unavailable handles, which finds nothing in
 * storage to remove because loading found nothing there.
 */
import type { DocumentId, Repo } from "@automerge/automerge-repo";

export interface UnavailableRequestsOptions {
  repo: Repo;
  /** Distinct unavailable documents a session may ask for; one more is refused. */
  limit: number;
  /** Closes the session (the relay adapter's closeSession). */
  refuse: (sessionId: string, reason: string) => void;
}

export class UnavailableRequests {
  readonly #options: UnavailableRequestsOptions;
  /** Per session: the document ids answered "doc-unavailable"; at most limit + 1 per session. */
  readonly #bySession = new Map<string, Set<string>>();
  /** Handles answered unavailable, dropped together once the Repo has finished marking them. */
  readonly #toDrop = new Set<string>();
  #dropQueued = false;
  /** Handles dropped since start, for tests and health. */
  dropped = 0;

  constructor(options: UnavailableRequestsOptions) {
    this.#options = options;
  }

  /** Sees every message the relay's Repo sends. */
  noteOutbound(message: { type: string; targetId: string; documentId?: string }): void {
    if (message.type !== "doc-unavailable" || message.documentId === undefined) return;
    const { targetId: sessionId, documentId } = message;
    let asked = this.#bySession.get(sessionId);
    if (!asked) this.#bySession.set(sessionId, (asked = new Set()));
    if (asked.size <= this.#options.limit) asked.add(documentId);
    if (asked.size > this.#options.limit) {
      this.#options.refuse(
        sessionId,
        `asked for more than ${this.#options.limit} documents this relay does not have`,
      );
    }
    this.#toDrop.add(documentId);
    if (!this.#dropQueued) {
      this.#dropQueued = true;
      // The synchronizer marks the handle unavailable right after it sends the answer, in the same call.
      setImmediate(() => this.#dropAnswered());
    }
  }

  /** A session is gone: its count goes with it. */
  forget(sessionId: string): void {
    this.#bySession.delete(sessionId);
  }

  #dropAnswered(): void {
    this.#dropQueued = false;
    const repo = this.#options.repo;
    for (const documentId of this.#toDrop) {
      const handle = repo.handles[documentId as DocumentId];
      if (!handle?.isUnavailable()) continue;
      try {
        repo.delete(documentId as DocumentId);
        this.dropped++;
      } catch {
        // A handle the Repo cannot delete stays until eviction, as before.
      }
    }
    this.#toDrop.clear();
  }
}
