/**
 * The relay half of the change fast path (shared/sync-wire.ts, main/sync/fast-path-client.ts): a client's fresh
 * change bytes are applied to the relay's copy of the document, and every change that copy gains (from a fast-path
 * batch, or from the sync protocol of a client without the feature) is forwarded at once to every other session that
 * agreed to the feature and syncs that document, the way y-websocket forwards an update. Exists because automerge-repo's
 * sync protocol is throttled per document (~100 ms) and costs a round trip per hop (automerge.md gotcha 2). With the
 * fast path carrying every change, the sync protocol to those sessions is only the safety net: shared/sync-pacing.ts
 * slows it to FAST_PATH_SYNC_INTERVAL_MS, and whatever the fast path cannot carry asks for a sync round at once.
 *
 * What must stay true (the same guarantees as the sync path):
 * - The sender's user passes access() for the document, or the batch is dropped; every recipient's user passes
 *   access(), has sent sync/request messages for the document on its current session (PeerInterest, the same rule
 *   that decides what the relay announces) and agreed to the feature. A batch never goes back to the session it came
 *   from.
 * - Nothing is forwarded that the relay did not apply first: bytes that are not Automerge data close the sender
 *   (1007); a batch waiting on missing dependencies is held by Automerge and the sender is asked for a sync round now.
 * - A change the fast path cannot carry to a session (above FAST_PATH_MAX_BYTES) makes a sync round to it at once, so
 *   the slowed protocol never delays it. A batch for an evicted document loads it from storage first.
 * - A document's first arrival (loaded from storage, or fetched whole by the sync protocol) is not forwarded: the
 *   sync protocol carries whole documents.
 */
import * as A from "@automerge/automerge";
import type { DocHandle, DocHandleChangePayload, DocumentId, Repo } from "@automerge/automerge-repo";
import { FAST_PATH_MAX_BYTES } from "../shared/limits.js";
import { changeHashes } from "../shared/node/change-hash.js";
import type { FastChangesFrame } from "../shared/sync-wire.js";
import { batchBytes, CLOSE_CODES } from "../shared/sync-wire.js";
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
  /** Runs a sync-protocol round with `sessionId` for the document now (shared/sync-pacing.ts syncWithPeerNow). */
  syncNow(sessionId: string, documentId: string): void;
  /** Records in the sync state that `sessionId` has these changes (shared/sync-pacing.ts notePeerHas). */
  notePeerHas(sessionId: string, documentId: string, hashes: readonly string[]): void;
}

export interface RelayFastPathStats {
  /** Batches applied here that added something. */
  applied: number;
  /** Batches sent on to other sessions. */
  forwarded: number;
  /** Batches dropped (no access, document unknown here). */
  dropped: number;
  /** Sync rounds asked for because the fast path could not carry something (too big, missing dependencies). */
  syncRounds: number;
}

type ChangeListener = (payload: DocHandleChangePayload<unknown>) => void;

export class RelayFastPath {
  readonly stats: RelayFastPathStats = { applied: 0, forwarded: 0, dropped: 0, syncRounds: 0 };
  readonly #deps: RelayFastPathDeps;
  /** Handles whose changes are forwarded; weak, so an evicted handle is not kept alive by being watched once. */
  readonly #watched = new WeakSet<DocHandle<unknown>>();
  /** The session whose batch is being applied to a document right now (its own changes are not sent back). */
  #applyingFrom: { documentId: string; sessionId: string } | null = null;

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
      void allowed.then((ok) => (ok ? this.#applyWhenLoaded(sessionId, documentId, changes) : this.#drop()));
      return { ok: true };
    }
    return this.#applyWhenLoaded(sessionId, documentId, changes);
  }

  /**
   * Forwards every change this document gains from now on to the fast sessions syncing it. Called whenever a fast
   * session sends a message about the document; cheap when already watching.
   */
  watch(documentId: string): void {
    const handle = this.#deps.repo.handles[documentId as DocumentId] as DocHandle<unknown> | undefined;
    if (!handle || this.#watched.has(handle)) return;
    this.#watched.add(handle);
    const listener: ChangeListener = (payload) => this.#onChange(handle, payload);
    handle.on("change", listener);
  }

  #applyWhenLoaded(sessionId: string, documentId: string, changes: Uint8Array[]): GuardVerdict {
    const handle = this.#deps.repo.handles[documentId as DocumentId] as DocHandle<unknown> | undefined;
    if (handle?.isReady()) return this.#apply(sessionId, handle, changes);
    // Evicted (or still loading): load it from storage, then apply. A document the relay never had stays unknown.
    void this.#deps.repo.find(documentId as DocumentId).then(
      (loaded) => {
        const verdict = this.#apply(sessionId, loaded as DocHandle<unknown>, changes);
        if (!verdict.ok) this.#drop();
      },
      () => this.#drop(),
    );
    return { ok: true };
  }

  #apply(sessionId: string, handle: DocHandle<unknown>, changes: Uint8Array[]): GuardVerdict {
    const documentId = handle.documentId;
    this.watch(documentId);
    const before = A.getHeads(handle.doc());
    this.#applyingFrom = { documentId, sessionId };
    try {
      handle.update((doc) => A.applyChanges(doc, changes)[0]);
    } catch {
      return { ok: false, code: CLOSE_CODES.malformed, reason: "changes frame is not Automerge change data" };
    } finally {
      this.#applyingFrom = null;
    }
    const doc = handle.doc();
    if (!sameHeads(before, A.getHeads(doc))) this.stats.applied++;
    // The sender has what it sent: the protocol's next round to it need not carry these back.
    this.#deps.notePeerHas(sessionId, documentId, changeHashes(changes));
    // Changes waiting on dependencies this copy lacks: the sender's sync protocol has them, ask for them now.
    if (A.getMissingDeps(doc, []).length > 0) this.#syncNow(sessionId, documentId);
    return { ok: true };
  }

  #onChange(handle: DocHandle<unknown>, payload: DocHandleChangePayload<unknown>): void {
    const documentId = handle.documentId;
    let changes: Uint8Array[];
    try {
      if (A.getHeads(payload.patchInfo.before).length === 0) return;
      changes = A.getChanges(payload.patchInfo.before, payload.patchInfo.after);
    } catch {
      return;
    }
    if (changes.length === 0) return;
    const origin = this.#applyingFrom?.documentId === documentId ? this.#applyingFrom.sessionId : null;
    const fits = batchBytes(changes) <= FAST_PATH_MAX_BYTES;
    let hashes: string[] | null = null;
    for (const target of this.#deps.fastSessions()) {
      if (target === origin || !this.#deps.interest.has(target, documentId)) continue;
      const targetUser = this.#deps.userOf(target);
      if (targetUser === undefined) continue;
      const deliver = (): void => {
        if (!fits) return this.#syncNow(target, documentId);
        if (!this.#forward(target, documentId, changes)) return;
        hashes ??= changeHashes(changes);
        this.#deps.notePeerHas(target, documentId, hashes);
      };
      const ok = this.#allowed(targetUser, documentId);
      if (ok === true) deliver();
      else if (ok !== false) void ok.then((yes) => yes && deliver());
    }
  }

  #forward(target: string, documentId: string, changes: Uint8Array[]): boolean {
    if (!this.#deps.send(target, documentId, changes)) return false;
    this.stats.forwarded++;
    return true;
  }

  #syncNow(sessionId: string, documentId: string): void {
    this.stats.syncRounds++;
    this.#deps.syncNow(sessionId, documentId);
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
