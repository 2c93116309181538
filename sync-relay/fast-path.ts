/**
 * The relay half of the change fast path (shared/sync-wire.ts, main/sync/fast-path-client.ts): a client's fresh
 * change bytes are applied to the relay's copy of the document and the same bytes are forwarded at once to every other
 * session syncing that document, the way y-websocket forwards an update. Exists because automerge-repo's sync protocol
 * is throttled per document (~100 ms) and costs a round trip per hop (automerge.md gotcha 2); with the fast path a
 * change crosses the relay in one message each way, and the sync protocol underneath mostly finds nothing to do.
 *
 * What must stay true (the same guarantees as the sync path):
 * - The sender's user passes access() for the document, or the batch is dropped; every recipient's user passes
 *   access(), has sent sync/request messages for the document on its current session (PeerInterest, the same rule
 *   that decides what the relay announces) and agreed to the feature. The sender never gets its own batch back.
 * - Nothing is forwarded that the relay did not apply first: bytes that are not Automerge data close the sender
 *   (1007); a batch that adds nothing new here (already known, or waiting on missing dependencies) is not forwarded.
 * - Only a loaded, ready document takes fast-path batches; anything else is left to the sync protocol, which also
 *   loads evicted documents back from storage. Saving goes through the Repo's own save of the updated handle.
 */
import * as A from "@automerge/automerge";
import type { DocumentId, Repo } from "@automerge/automerge-repo";
import type { FastChangesFrame } from "../shared/sync-wire.js";
import { CLOSE_CODES } from "../shared/sync-wire.js";
import type { AccessDecision } from "./access.js";
import type { GuardVerdict } from "./message-guard.js";
import type { PeerInterest } from "./peer-interest.js";

export interface RelayFastPathDeps {
  repo: Repo;
  interest: PeerInterest;
  access: AccessDecision;
  /** The user behind a session peer id. */
  userOf(sessionId: string): string | undefined;
  /** Sessions that agreed to the fast path. */
  fastSessions(): Iterable<string>;
  send(sessionId: string, documentId: string, changes: Uint8Array[]): boolean;
}

export interface RelayFastPathStats {
  /** Batches applied here that added something. */
  applied: number;
  /** Batches sent on to other sessions. */
  forwarded: number;
  /** Batches dropped (no access, document not loaded here). */
  dropped: number;
}

export class RelayFastPath {
  readonly stats: RelayFastPathStats = { applied: 0, forwarded: 0, dropped: 0 };
  readonly #deps: RelayFastPathDeps;

  constructor(deps: RelayFastPathDeps) {
    this.#deps = deps;
  }

  /** Handles one batch from `sessionId`; a refusal closes that socket. */
  receive(sessionId: string, frame: FastChangesFrame): GuardVerdict {
    const { documentId, changes } = frame;
    const user = this.#deps.userOf(sessionId);
    if (user === undefined) return this.#drop();
    const allowed = this.#allowed(user, documentId);
    if (allowed === false) return this.#drop();
    if (allowed !== true) {
      // An asynchronous access decision: apply once it allows; a refusal then cannot close the socket, only drop.
      void allowed.then((ok) => (ok ? this.#apply(sessionId, documentId, changes) : this.#drop()));
      return { ok: true };
    }
    return this.#apply(sessionId, documentId, changes);
  }

  #apply(sessionId: string, documentId: string, changes: Uint8Array[]): GuardVerdict {
    const handle = this.#deps.repo.handles[documentId as DocumentId];
    if (!handle || !handle.isReady()) return this.#drop();
    const before = A.getHeads(handle.doc());
    try {
      handle.update((doc) => A.applyChanges(doc, changes)[0]);
    } catch {
      return { ok: false, code: CLOSE_CODES.malformed, reason: "changes frame is not Automerge change data" };
    }
    if (sameHeads(before, A.getHeads(handle.doc()))) return { ok: true };
    this.stats.applied++;
    for (const target of this.#deps.fastSessions()) {
      if (target === sessionId || !this.#deps.interest.has(target, documentId)) continue;
      const targetUser = this.#deps.userOf(target);
      if (targetUser === undefined) continue;
      const ok = this.#allowed(targetUser, documentId);
      if (ok === true) this.#forward(target, documentId, changes);
      else if (ok !== false) void ok.then((yes) => yes && this.#forward(target, documentId, changes));
    }
    return { ok: true };
  }

  #forward(target: string, documentId: string, changes: Uint8Array[]): void {
    if (this.#deps.send(target, documentId, changes)) this.stats.forwarded++;
  }

  /** access() as a boolean when it answers synchronously; a throw or rejection is a refusal. */
  #allowed(user: string, documentId: string): boolean | Promise<boolean> {
    try {
      const result = this.#deps.access(user, documentId);
      if (typeof result === "boolean") return result;
      return Promise.resolve(result).then(
        (ok) => ok === true,
        () => false,
      );
    } catch {
      return false;
    }
  }

  #drop(): GuardVerdict {
    this.stats.dropped++;
    return { ok: true };
  }
}

function sameHeads(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  return a.every((head, i) => head === b[i]);
}
