/**
 * Counts local changes the relay has not acknowledged, for the sync indicator's "N changes waiting". The relay's
 * acknowledged heads per document come from automerge-repo's sync info for the relay's storage id (persisted by the
 * Repo, so the count survives a restart while offline), joined by the heads of what the relay itself sent this device
 * since (relayReceived: it holds those, and until its next acknowledgement a teammate's changes just received counted
 * as ours). A document the relay never acknowledged counts whole.
 */
import { next as A } from "@automerge/automerge";
import { changesSince } from "../../shared/automerge-changes.js";
import type { DocHandle, Repo, StorageId } from "@automerge/automerge-repo";

function changesNotIn(doc: A.Doc<unknown>, ackedHeads: readonly string[]): number {
  const known = ackedHeads.filter((hash) => A.hasHeads(doc, [hash]));
  return changesSince(doc, known).length;
}

/** The heads the relay holds of one document: what it acknowledged, and what it sent this device itself. */
export function relayHeldHeads(
  handle: DocHandle<unknown>,
  relayStorageId: StorageId | null,
  hexHeadsOf: (heads: unknown) => string[],
  relayReceived: (documentId: string) => readonly string[],
): string[] {
  const info = relayStorageId ? handle.getSyncInfo(relayStorageId) : undefined;
  return [...(info ? hexHeadsOf(info.lastHeads) : []), ...relayReceived(handle.documentId)];
}

/** `hexHeadsOf` turns automerge-repo's UrlHeads into Automerge's hex heads. */
export function countPendingChanges(
  repo: Repo,
  isShared: (documentId: string) => boolean,
  relayStorageId: StorageId | null,
  hexHeadsOf: (heads: unknown) => string[],
  relayReceived: (documentId: string) => readonly string[] = () => [],
): number {
  let pending = 0;
  for (const handle of Object.values(repo.handles) as DocHandle<unknown>[]) {
    if (!handle.isReady() || !isShared(handle.documentId)) continue;
    const doc = handle.doc();
    if (!doc) continue;
    try {
      pending += changesNotIn(doc, relayHeldHeads(handle, relayStorageId, hexHeadsOf, relayReceived));
    } catch {
      // Heads we cannot view (a concurrent history we lack) say nothing about our own changes; skip them.
    }
  }
  return pending;
}
