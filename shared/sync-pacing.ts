/**
 * Per-peer pacing of automerge-repo's sync protocol. Our patch of automerge-repo's DocSynchronizer
 * (patches/@automerge+automerge-repo+2.5.6.patch) asks the object installed at globalThis[Symbol.for(
 * "automerge-repo.syncPacing")] how often to sync each (local peer, remote peer) pair, and adds syncWithPeerNow(peer).
 * Stock automerge-repo syncs every peer of a document on one 100 ms throttle; once a peer receives every change on
 * the change fast path (shared/sync-wire.ts), those rounds only duplicate work, so its pace is slowed to
 * FAST_PATH_SYNC_INTERVAL_MS and the protocol stays underneath as the safety net.
 *
 * What must stay true:
 * - A pair without an entry keeps the stock pace: pacing only ever changes what someone set on purpose.
 * - Entries are keyed by both peer ids, so several Repos in one process (tests, benchmarks) never pace each other.
 * - One registry per process, shared by every copy of this module (the symbol is global).
 */
import type { DocumentId, PeerId, Repo } from "@automerge/automerge-repo";
import { NOTED_CHANGE_TTL_MS } from "./limits.js";

const SYNC_PACING_KEY = Symbol.for("automerge-repo.syncPacing");

export class SyncPacing {
  /** local peer -> remote peer -> interval: looked up on every change, so no key string is built per lookup. */
  readonly #intervals = new Map<string, Map<string, number>>();

  /** Syncs `remote` from `local`'s Repo at most every `intervalMs` per document. */
  set(local: string, remote: string, intervalMs: number): void {
    let byRemote = this.#intervals.get(local);
    if (!byRemote) this.#intervals.set(local, (byRemote = new Map()));
    byRemote.set(remote, intervalMs);
  }

  /** Back to the stock pace. */
  clear(local: string, remote: string): void {
    const byRemote = this.#intervals.get(local);
    if (!byRemote) return;
    byRemote.delete(remote);
    if (byRemote.size === 0) this.#intervals.delete(local);
  }

  /** Called by the patched DocSynchronizer on every document change, once per peer. */
  intervalFor(local: string, remote: string): number | undefined {
    return this.#intervals.get(local)?.get(remote);
  }
}

/** The process-wide registry the patched DocSynchronizer reads (installed on first use). */
export function syncPacing(): SyncPacing {
  const holder = globalThis as { [SYNC_PACING_KEY]?: SyncPacing };
  holder[SYNC_PACING_KEY] ??= new SyncPacing();
  return holder[SYNC_PACING_KEY];
}

interface PatchedDocSynchronizer {
  syncWithPeerNow?(peerId: PeerId): void;
  notePeerHas?(peerId: PeerId, hashes: readonly string[], forgetAfterMs?: number): void;
}

function synchronizerOf(repo: Repo, documentId: string): PatchedDocSynchronizer | undefined {
  return repo.synchronizer.docSynchronizers[documentId as DocumentId] as PatchedDocSynchronizer | undefined;
}

/**
 * Sends `peerId` a sync message for `documentId` now, whatever its pace. False when this Repo has no synchronizer for
 * the document yet (it then syncs on its own once it does) or automerge-repo is not patched.
 */
export function syncWithPeerNow(repo: Repo, documentId: string, peerId: string): boolean {
  const synchronizer = synchronizerOf(repo, documentId);
  if (typeof synchronizer?.syncWithPeerNow !== "function") return false;
  synchronizer.syncWithPeerNow(peerId as PeerId);
  return true;
}

/**
 * Tells `repo`'s sync state for `peerId` that the peer has these changes (they crossed on the fast path, either way),
 * so its next sync round does not carry them again. Noting less than the truth only costs duplicate bytes, so notes
 * are forgotten after NOTED_CHANGE_TTL_MS (the sync state would otherwise grow by every change of the session).
 */
export function notePeerHas(repo: Repo, documentId: string, peerId: string, hashes: readonly string[]): void {
  if (hashes.length === 0) return;
  synchronizerOf(repo, documentId)?.notePeerHas?.(peerId as PeerId, hashes, NOTED_CHANGE_TTL_MS);
}
