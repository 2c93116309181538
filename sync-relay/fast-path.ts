/**
 * The relay half of the change fast path (shared/sync-wire.ts, main/sync/fast-path-client.ts): a client's fresh
 * change bytes are forwarded the moment they arrive to every other session that agreed to the feature and syncs that
 * document, the way y-websocket forwards an update, and applied to the relay's own copy shortly after; every change
 * that copy gains any other way (the sync protocol of a client without the feature) is forwarded when it is applied.
 * Exists because automerge-repo's sync protocol is throttled per document (~100 ms) and costs a round trip per hop
 * (automerge.md gotcha 2). With the fast path carrying every change, the sync protocol to those sessions is only the
 * safety net: shared/sync-pacing.ts slows it to FAST_PATH_SYNC_INTERVAL_MS, and whatever the fast path cannot carry
 * asks for a sync round at once.
 *
 * What must stay true (the same guarantees as the sync path):
 * - The sender's session has sent sync/request messages for the document on its connection (PeerInterest) and its
 *   user passes access() for it, or the batch is dropped; every recipient's user passes
 *   access(), has sent sync/request messages for the document on its current session (PeerInterest, the same rule
 *   that decides what the relay announces) and agreed to the feature. A batch never goes back to the session it came
 *   from.
 * - Nothing is forwarded that is not well-formed change chunks (magic bytes and checksum, checked on arrival; else
 *   the sender is closed 1007). Checksummed bytes that still do not apply close their sender when the relay applies
 *   them; a client treats a batch it cannot apply as nothing (its sync protocol repairs). A batch waiting on missing
 *   dependencies is held by Automerge and its sender is asked for a sync round now.
 * - Every forwarded change reaches the relay's copy within relayApplyDelay() of its arrival (RELAY_APPLY_INTERVAL_MS,
 *   longer after a slow apply, never above RELAY_APPLY_MAX_WAIT_MS) and before close() returns (flush()); a relay
 *   that dies first loses nothing, since the writer keeps the change and syncs it again.
 * - Every fast session syncing a document gets each of its changes by this path once: on arrival, or when the copy
 *   applies it if the session began syncing the document in between (it was given the copy without the change, and
 *   the paced protocol would bring it only on its next round).
 * - A change the fast path cannot carry to a session (above FAST_PATH_MAX_BYTES) makes a sync round to it at once, so
 *   the slowed protocol never delays it. A batch for an evicted document loads it from storage first.
 * - A document's first arrival (loaded from storage, or fetched whole by the sync protocol) is not forwarded: the
 *   sync protocol carries whole documents.
 * - Each fast session hears the relay's heads once its fast-path changes are in the copy (fast-path-acks.ts): stock
 *   Automerge leaves a sync message unanswered when its heads equal the relay's, which is just what follows a batch.
 *
 * Cost: an Automerge apply costs about the same for one change as for dozens (measured: ~1-3 ms a call against
 * ~0.06 ms a change in a batch of 100), so the relay applies a document's batches together at most once per
 * RELAY_APPLY_INTERVAL_MS, off the delivery path, or sooner when a fast session's sync message for the document
 * arrives (applyNow), so Automerge can drop the notes that message covers. An apply can also be slow (a big batch; with
 * Automerge 3 every apply walked the whole document), so after a slow one both wait longer: relayApplyDelay().
 * Forwarding on apply listens to "heads-changed", not "change", so the relay's handles have no "change" listener and
 * skip the diff DocHandle would compute for one (the automerge-repo patch makes that diff conditional);
 * fast-path-apply.test.ts checks that nothing re-adds one.
 */
import { next as A } from "@automerge/automerge";
import { changesSince } from "../shared/automerge-changes.js";
import { isValidDocumentId, type DocHandle, type DocumentId, type Repo } from "@automerge/automerge-repo";
import { FAST_PATH_MAX_BYTES } from "../shared/limits.js";
import { RELAY_APPLY_BUSY_SHARE, RELAY_APPLY_INTERVAL_MS, RELAY_APPLY_MAX_WAIT_MS } from "./limits.js";
import { spacingAfter, timed } from "../shared/apply-spacing.js";
import { verifiedChangeHashes } from "../shared/node/change-hash.js";
import type { FastChangesFrame } from "../shared/sync-wire.js";
import { batchBytes, CLOSE_CODES } from "../shared/sync-wire.js";
import type { AccessDecision } from "./access.js";
import { FastPathAcks } from "./fast-path-acks.js";
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
  /** Whether one session agreed to the fast path (asked per sync message: must not walk every session). */
  isFastSession(sessionId: string): boolean;
  send(sessionId: string, documentId: string, changes: Uint8Array[]): boolean;
  /** Runs a sync-protocol round with `sessionId` for the document now (shared/sync-pacing.ts syncWithPeerNow). */
  syncNow(sessionId: string, documentId: string): void;
  /** Records in the sync state that `sessionId` has these changes (shared/sync-pacing.ts notePeerHas). */
  notePeerHas(sessionId: string, documentId: string, hashes: readonly string[]): void;
  /** Closes a session whose batch turned out not to apply (found after the frame was accepted). */
  refuse(sessionId: string, code: number, reason: string): void;
  /** A monotonic clock in ms that times applies (default performance.now; tests inject one). */
  now?: () => number;
}

/**
 * How long after a document's last apply began, which took `costMs`, its next may begin: RELAY_APPLY_INTERVAL_MS for
 * the timed apply (0 for applyNow) at least, and long enough that its applies take at most RELAY_APPLY_BUSY_SHARE of
 * the thread, up to RELAY_APPLY_MAX_WAIT_MS.
 */
export function relayApplyDelay(costMs: number, floorMs = RELAY_APPLY_INTERVAL_MS): number {
  return spacingAfter(costMs, { floorMs, busyShare: RELAY_APPLY_BUSY_SHARE, maxMs: RELAY_APPLY_MAX_WAIT_MS });
}

export interface RelayFastPathStats {
  /** Updates applied here that added something (one per document per apply interval at most). */
  applied: number;
  /** Batches sent on to other sessions. */
  forwarded: number;
  /** Batches dropped (no access, document unknown here). */
  dropped: number;
  /** Sync rounds asked for because the fast path could not carry something (too big, missing dependencies). */
  syncRounds: number;
}

/** One sender's batch, with the hashes checked on arrival and the sessions it has been sent to. */
interface Part {
  sessionId: string;
  changes: Uint8Array[];
  hashes: string[];
  reached: Set<string>;
}

/** A document's batches forwarded on arrival and waiting to be applied here, with the timer that applies them. */
interface Pending {
  parts: Part[];
  timer: NodeJS.Timeout;
}

const MALFORMED = "changes frame is not Automerge change data";

export class RelayFastPath {
  readonly stats: RelayFastPathStats = { applied: 0, forwarded: 0, dropped: 0, syncRounds: 0 };
  readonly #deps: RelayFastPathDeps;
  /** Heads each watched handle had when it last told us of a change; weak, so eviction frees a handle at once. */
  readonly #seenHeads = new WeakMap<DocHandle<unknown>, A.Heads>();
  /** Batches forwarded but not yet applied here, per document. */
  readonly #pending = new Map<string, Pending>();
  /**
   * Documents whose last apply was slow (relayApplyDelay above RELAY_APPLY_INTERVAL_MS): when it began (Date.now())
   * and how long it took (ms). Only those, and the next apply of any document drops the entries older than
   * RELAY_APPLY_MAX_WAIT_MS, so the map holds about the large documents applied in that window.
   */
  readonly #slowApply = new Map<string, { at: number; costMs: number }>();
  /**
   * While the relay applies forwarded batches to a document: their hashes (those changes are not forwarded again),
   * and whether the copy held no changes waiting on dependencies (then the apply adds only these batches' changes).
   */
  #applying: { documentId: string; hashes: ReadonlySet<string>; onlyThese: boolean } | null = null;

  /** The relay's heads reach each fast session even when its changes arrived only here (fast-path-acks.ts). */
  readonly acks: FastPathAcks;

  constructor(deps: RelayFastPathDeps) {
    this.#deps = deps;
    this.acks = new FastPathAcks({
      repo: deps.repo,
      isFastSession: deps.isFastSession,
      syncNow: deps.syncNow,
    });
  }

  /** Handles one batch from `sessionId`; bytes that are not Automerge changes get a refusal, which closes that socket. */
  receive(sessionId: string, frame: FastChangesFrame): GuardVerdict {
    const { documentId, changes } = frame;
    if (!isValidDocumentId(documentId)) return { ok: false, code: CLOSE_CODES.malformed, reason: "changes frame has no valid documentId" };
    const user = this.#deps.userOf(sessionId);
    if (user === undefined) return this.#drop();
    const hashes = verifiedChangeHashes(changes);
    if (hashes === null) return { ok: false, code: CLOSE_CODES.malformed, reason: MALFORMED };
    // Only a document this session syncs here (its sync/request came first on this connection, as the client's own
    // rule has it): a batch for any other id made the relay look it up and keep a handle, around the request limit.
    if (!this.#deps.interest.has(sessionId, documentId)) return this.#drop();
    const part: Part = { sessionId, changes, hashes, reached: new Set() };
    const allowed = this.#allowed(user, documentId);
    if (allowed === false) return this.#drop();
    if (allowed === true) this.#accept(documentId, part);
    else void allowed.then((ok) => (ok ? this.#accept(documentId, part) : this.#drop()));
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

  /**
   * Applies the document's waiting batches now if its copy is loaded. Called as a fast session's sync message for it
   * arrives: Automerge drops the fast-path notes that message's heads cover only for heads the copy holds, so a
   * lagging copy kept every note for NOTED_CHANGE_TTL_MS, and each sync message carried them through wasm.
   */
  applyNow(documentId: string): void {
    const pending = this.#pending.get(documentId);
    const handle = this.#deps.repo.handles[documentId as DocumentId] as DocHandle<unknown> | undefined;
    if (!pending || !handle?.isReady()) return;
    // Too soon after a slow apply: the timer applies them (trimming notes is not worth another walk of the document).
    const last = this.#slowApply.get(documentId);
    if (last && Date.now() - last.at < relayApplyDelay(last.costMs, 0)) return;
    this.#pending.delete(documentId);
    clearTimeout(pending.timer);
    this.#apply(handle, pending.parts);
  }

  /**
   * Applies the document's waiting batches now, whatever the pace (a fenced write checks its dependencies against the
   * copy: changes already forwarded must be in it first).
   */
  applyPending(documentId: string): Promise<void> {
    return this.#applyPending(documentId);
  }

  /** Applies every batch still waiting (close() and tests call this; the timers do it otherwise). */
  flush(): Promise<void> {
    const waiting = [...this.#pending.keys()].map((documentId) => this.#applyPending(documentId));
    return Promise.all(waiting).then(() => undefined);
  }

  #accept(documentId: string, part: Part): void {
    const handle = this.#deps.repo.handles[documentId as DocumentId] as DocHandle<unknown> | undefined;
    if (handle?.isReady() && A.hasHeads(handle.doc(), part.hashes)) {
      // A batch this copy already holds (a resend) went out when it first came.
      this.#deps.notePeerHas(part.sessionId, documentId, part.hashes);
      return;
    }
    this.#send(documentId, part.changes, part.hashes, part.sessionId, part.reached);
    const pending = this.#pending.get(documentId);
    if (pending) {
      pending.parts.push(part);
      return;
    }
    const delay = relayApplyDelay(this.#slowApply.get(documentId)?.costMs ?? 0);
    const timer = setTimeout(() => void this.#applyPending(documentId), delay);
    this.#pending.set(documentId, { parts: [part], timer });
  }

  async #applyPending(documentId: string): Promise<void> {
    const pending = this.#pending.get(documentId);
    if (!pending) return;
    this.#pending.delete(documentId);
    clearTimeout(pending.timer);
    try {
      let handle = this.#deps.repo.handles[documentId as DocumentId] as DocHandle<unknown> | undefined;
      // Evicted (or still loading): load it from storage first. A document the relay never had stays unknown.
      if (!handle?.isReady()) handle = (await this.#deps.repo.find(documentId as DocumentId)) as DocHandle<unknown>;
      this.#apply(handle, pending.parts);
    } catch {
      this.#drop();
    }
  }

  #apply(handle: DocHandle<unknown>, parts: Part[]): void {
    const at = Date.now();
    const costMs = timed(() => this.#applyParts(handle, parts), this.#deps.now);
    for (const [documentId, slow] of this.#slowApply) {
      if (at - slow.at >= RELAY_APPLY_MAX_WAIT_MS) this.#slowApply.delete(documentId);
    }
    if (relayApplyDelay(costMs) > RELAY_APPLY_INTERVAL_MS) this.#slowApply.set(handle.documentId, { at, costMs });
    else this.#slowApply.delete(handle.documentId);
  }

  #applyParts(handle: DocHandle<unknown>, parts: Part[]): void {
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
    const current = handle.doc();
    const before = A.getHeads(current);
    const onlyThese = A.getMissingDeps(current, []).length === 0;
    this.#applying = { documentId, hashes: new Set(parts.flatMap((p) => p.hashes)), onlyThese };
    try {
      handle.update((doc) => A.applyChanges(doc, changes)[0]);
    } catch {
      return false;
    } finally {
      this.#applying = null;
    }
    if (!sameHeads(before, A.getHeads(handle.doc()))) this.stats.applied++;
    return true;
  }

  #afterApply(handle: DocHandle<unknown>, parts: Part[]): void {
    const documentId = handle.documentId;
    for (const part of parts) {
      // Each sender has what it sent: the protocol's next round to it need not carry these back.
      this.#deps.notePeerHas(part.sessionId, documentId, part.hashes);
      // A session that began syncing the document after the batch arrived got the copy without it: send it now.
      this.#send(documentId, part.changes, part.hashes, part.sessionId, part.reached);
    }
    // Changes waiting on dependencies this copy lacks: the senders' sync protocol has them, ask for them now.
    if (A.getMissingDeps(handle.doc(), []).length === 0) return;
    for (const sessionId of new Set(parts.map((p) => p.sessionId))) this.#syncNow(sessionId, documentId);
  }

  #onHeadsChanged(handle: DocHandle<unknown>, doc: A.Doc<unknown>): void {
    const documentId = handle.documentId;
    const seen = this.#seenHeads.get(handle) ?? [];
    const applying = this.#applying?.documentId === documentId ? this.#applying : null;
    // An apply of forwarded batches into a copy with no held changes gains exactly those batches, which went out on
    // arrival: nothing to look up (reading the changes back and hashing them was a fifth of the relay's apply cost).
    if (applying?.onlyThese && seen.length > 0) {
      this.#seenHeads.set(handle, A.getHeads(doc));
      return;
    }
    let changes: Uint8Array[];
    let hashes: string[] | null;
    try {
      this.#seenHeads.set(handle, A.getHeads(doc));
      // The document's first arrival: the sync protocol carries whole documents.
      if (seen.length === 0) return;
      changes = changesSince(doc, seen);
      hashes = verifiedChangeHashes(changes);
    } catch {
      return;
    }
    if (hashes === null) return;
    // Batches forwarded on arrival went out then; only what this apply added besides them goes now.
    const forwarded = applying?.hashes ?? null;
    if (forwarded) {
      const fresh = hashes.map((hash) => !forwarded.has(hash));
      changes = changes.filter((_, i) => fresh[i]);
      hashes = hashes.filter((_, i) => fresh[i]);
    }
    if (changes.length > 0) this.#send(documentId, changes, hashes, null, new Set());
  }

  /**
   * Sends changes (with their hashes) to every fast session syncing the document with access, except `origin` and
   * the sessions in `reached`, which gains each one sent to.
   */
  #send(
    documentId: string,
    changes: Uint8Array[],
    hashes: string[],
    origin: string | null,
    reached: Set<string>,
  ): void {
    // Always true for a batch on arrival (its frame was at most FAST_PATH_MAX_BYTES); changes gained otherwise may not.
    const fits = batchBytes(changes) <= FAST_PATH_MAX_BYTES;
    for (const target of this.#deps.fastSessions()) {
      if (target === origin || reached.has(target) || !this.#deps.interest.has(target, documentId)) continue;
      const targetUser = this.#deps.userOf(target);
      if (targetUser === undefined) continue;
      const deliver = (): void => {
        if (reached.has(target)) return;
        reached.add(target);
        if (!fits) return this.#syncNow(target, documentId);
        if (this.#forward(target, documentId, changes)) this.#deps.notePeerHas(target, documentId, hashes);
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
