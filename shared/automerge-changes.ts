/**
 * Change lookups by heads, for code in any process (the window's outbox, the relay's fast path). Automerge 2 has no
 * A.getChangesSince; its backend's getChanges gives the same changes in the same order.
 */
import { next as A } from "@automerge/automerge";

/** The changes of `doc` since `heads` (all for []), in the order Automerge applied them. */
export function changesSince(doc: A.Doc<unknown>, heads: readonly string[]): Uint8Array[] {
  return A.getBackend(doc).getChanges([...heads]);
}

/** The hashes of the changes of `doc` that a peer holding `heldHeads` lacks (heads `doc` does not know are ignored). */
export function changesNotHeld(doc: A.Doc<unknown>, heldHeads: readonly string[]): Set<string> {
  const known = heldHeads.filter((hash) => A.hasHeads(doc, [hash]));
  return new Set(changesSince(doc, known).map((change) => A.decodeChange(change).hash));
}
