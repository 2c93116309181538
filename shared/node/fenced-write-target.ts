/**
 * Where a fenced write lands at its keeper (issue #25): the keeper's own copy of the channel's plan or conversation,
 * in a Repo that syncs it on to every replica. The relay uses it for shared plans, the app for its local-only ones.
 *
 * What must stay true: a write is applied whole or not at all; changes whose dependencies the copy does not hold are
 * refused rather than left waiting in Automerge's queue, where they could land later, after the generation moved on;
 * bytes that are not Automerge changes are refused before anything is applied.
 */
import { next as A } from "@automerge/automerge";
import type { DocHandle, Repo } from "@automerge/automerge-repo";
import type { FencedWriteRefusal } from "../lease-wire.js";
import { verifiedChangeHashes } from "./change-hash.js";

export interface FencedTarget {
  /** Whether the copy holds every one of these changes already (a write sent again after its answer was lost). */
  holds(changes: readonly Uint8Array[]): boolean;
  /** Why these changes cannot be applied to the copy as it is now, or null when they can. Synchronous. */
  refusalOf(changes: readonly Uint8Array[]): FencedWriteRefusal | null;
  /** Applies them now (synchronously: nothing can come between the fence and this). */
  apply(changes: readonly Uint8Array[]): void;
  /** Resolves once the copy is on disk. */
  persist(): Promise<void>;
}

export function fencedTargetOf(repo: Repo, handle: DocHandle<unknown>): FencedTarget {
  return {
    holds(changes) {
      const hashes = verifiedChangeHashes([...changes]);
      return hashes !== null && A.hasHeads(handle.doc(), hashes);
    },
    refusalOf(changes) {
      const hashes = verifiedChangeHashes([...changes]);
      if (hashes === null) return "malformed";
      const doc = handle.doc();
      const inBatch = new Set(hashes);
      const outside = new Set<string>();
      for (const change of changes) {
        try {
          for (const dep of A.decodeChange(change).deps) if (!inBatch.has(dep)) outside.add(dep);
        } catch {
          return "malformed";
        }
      }
      return outside.size === 0 || A.hasHeads(doc, [...outside]) ? null : "missing-dependencies";
    },
    apply(changes) {
      handle.update((doc) => A.applyChanges(doc, [...changes])[0]);
    },
    persist: () => repo.flush([handle.documentId]),
  };
}
