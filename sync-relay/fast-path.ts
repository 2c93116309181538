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
 *
 * Cost: the batches of one turn of the event loop are applied per document as one update, at setImmediate (after
 * every socket that turn has been read), so under load the per-update cost (DocHandle's state machine, Automerge's
 * patch for the materialized document, one frame per recipient) is paid once per document per turn, not once per
 * frame; an idle relay applies a lone frame at once. Forwarding listens to "heads-changed", not "change", so the
 * relay's handles have no "change" listener and skip the diff DocHandle would compute for one (the automerge-repo
 * patch makes that diff conditional); fast-path.test.ts checks that nothing re-adds one.
 */
import * as A from "@automerge/automerge";
import type { DocHandle, DocumentId, Repo } from "@automerge/automerge-repo";
import { FAST_PATH_MAX_BYTES } from "../shared/limits.js";
import { changeHashes, verifiedChangeHashes } from "../shared/node/change-hash.js";
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
  /** Closes a session whose batch turned out not to apply (found after the frame was accepted). */
  refuse(sessionId: string, code: number, reason: string): void;
}

export interface RelayFastPathStats {
  /** Updates applied here that added something (one per document per turn of the event loop). */
  applied: number;
  /** Batches sent on to other sessions. */
  forwarded: number;
  /** Batches dropped (no access, document unknown here). */
  dropped: number;
  /** Sync rounds asked for because the fast path could not carry something (too big, missing dependencies). */
  syncRounds: number;
}

/** One sender's part of a document's batch for this turn, with the hashes checked on arrival. */
interface Part {
  sessionId: string;
  changes: Uint8Array[];
  hashes: string[];
}

const MALFORMED = "changes frame is not Automerge change data";

export class RelayFastPath {
  readonly stats: RelayFastPathStats = { applied: 0, forwarded: 0, dropped: 0, syncRounds: 0 };
  readonly #deps: RelayFastPathDeps;
  /** Heads each watched handle had when it last told us of a change; weak, so eviction frees a handle at once. */
  readonly #seenHeads = new WeakMap<DocHandle<unknown>, A.Heads>();
  /** Batches received this turn, per document, applied together at setImmediate. */
  readonly #queued = new Map<string, Part[]>();
  #flushScheduled = false;
  /** The sessions whose batch is being applied to a document right now (their own changes are not sent back). */
  #applyingFrom: { documentId: string; sessions: ReadonlySet<string> } | null = null;

  constructor(deps: RelayFastPathDeps) {
    this.#deps = deps;
  }

  /** Handles one batch from `sessionId`; bytes that are not Automerge changes get a refusal, which closes that socket. */
  receive(sessionId: string, frame: FastChangesFrame): GuardVerdict {
    const { documentId, changes } = frame;
    const user = this.#deps.userOf(sessionId);
    if (user === undefined) return this.#drop();
    const hashes = verifiedChangeHashes(changes);
    if (hashes === null) return { ok: false, code: CLOSE_CODES.malformed, reason: MALFORMED };
    const part: Part = { sessionId, changes, hashes };
    const allowed = this.#allowed(user, documentId);
    if (allowed === false) return this.#drop();
    if (allowed === true) this.#enqueue(documentId, part);
    else void allowed.then((ok) => (ok ? this.#enqueue(documentId, part) : this.#drop()));
    return { ok: true };
  }

  /**
   * Forwards every change this document gains from now on to the fast sessions syncing it. Called whenever a fast
   * session sends a message about the document; cheap when already watching.
   */
  watch(documentId: string): void {
    const handle = this.#deps.repo.handles[documentId as DocumentId] as DocHandle<unknown> | undefined;
    if (!handle || this.#seenHeads.has(handle)) return;
    this.#seenHeads.set(handle, handle.isReady() ? A.getHeads(handle.doc()) : []);
    handle.on("heads-changed", ({ doc }) => this.#onHeadsChanged(handle, doc));
  }

  #enqueue(documentId: string, part: Part): void {
    const parts = this.#queued.get(documentId);
    if (parts) parts.push(part);
    else this.#queued.set(documentId, [part]);
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#flushScheduled = false;
    const queued = [...this.#queued];
    this.#queued.clear();
    for (const [documentId, parts] of queued) {
      try {
        this.#applyWhenLoaded(documentId, parts);
      } catch {
        // One document's trouble must not stop the others of this turn.
        this.#drop();
      }
    }
  }

  #applyWhenLoaded(documentId: string, parts: Part[]): void {
    const handle = this.#deps.repo.handles[documentId as DocumentId] as DocHandle<unknown> | undefined;
    if (handle?.isReady()) return this.#apply(handle, parts);
    // Evicted (or still loading): load it from storage, then apply. A document the relay never had stays unknown.
    void this.#deps.repo.find(documentId as DocumentId).then(
      (loaded) => this.#apply(loaded as DocHandle<unknown>, parts),
      () => this.#drop(),
    );
  }

  #apply(handle: DocHandle<unknown>, parts: Part[]): void {
    if (this.#update(handle, parts)) return this.#afterApply(handle, parts);
    // The combined batch did not apply: apply each sender's part alone, so only the sender of bad bytes is refused.
    for (const part of parts) {
      if (parts.length > 1 && this.#update(handle, [part])) this.#afterApply(handle, [part]);
      else this.#deps.refuse(part.sessionId, CLOSE_CODES.malformed, MALFORMED);
    }
  }

  /** Applies the parts as one update; false when Automerge refuses the bytes. */
  #update(handle: DocHandle<unknown>, parts: Part[]): boolean {
    const documentId = handle.documentId;
    this.watch(documentId);
    const changes = parts.length === 1 ? parts[0].changes : parts.flatMap((p) => p.changes);
    const before = A.getHeads(handle.doc());
    this.#applyingFrom = { documentId, sessions: new Set(parts.map((p) => p.sessionId)) };
    try {
      handle.update((doc) => A.applyChanges(doc, changes)[0]);
    } catch {
      return false;
    } finally {
      this.#applyingFrom = null;
    }
    if (!sameHeads(before, A.getHeads(handle.doc()))) this.stats.applied++;
    return true;
  }

  #afterApply(handle: DocHandle<unknown>, parts: Part[]): void {
    const documentId = handle.documentId;
    // Each sender has what it sent: the protocol's next round to it need not carry these back.
    for (const part of parts) this.#deps.notePeerHas(part.sessionId, documentId, part.hashes);
    // Changes waiting on dependencies this copy lacks: the senders' sync protocol has them, ask for them now.
    if (A.getMissingDeps(handle.doc(), []).length === 0) return;
    for (const sessionId of new Set(parts.map((p) => p.sessionId))) this.#syncNow(sessionId, documentId);
  }

  #onHeadsChanged(handle: DocHandle<unknown>, doc: A.Doc<unknown>): void {
    const documentId = handle.documentId;
    const seen = this.#seenHeads.get(handle) ?? [];
    let changes: Uint8Array[];
    try {
      this.#seenHeads.set(handle, A.getHeads(doc));
      // The document's first arrival: the sync protocol carries whole documents.
      if (seen.length === 0) return;
      changes = A.getChangesSince(doc, seen);
    } catch {
      return;
    }
    if (changes.length === 0) return;
    const origins = this.#applyingFrom?.documentId === documentId ? this.#applyingFrom.sessions : null;
    const fits = batchBytes(changes) <= FAST_PATH_MAX_BYTES;
    let hashes: string[] | null = null;
    for (const target of this.#deps.fastSessions()) {
      // A batch several sessions sent in one turn reaches each of them with the others' changes (and its own,
      // which Automerge ignores); a single sender never gets its own back.
      if ((origins?.size === 1 && origins.has(target)) || !this.#deps.interest.has(target, documentId)) continue;
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
