/**
 * Change lookups by heads, for code in any process (the window's outbox, the relay's fast path). Automerge 2 has no
 * A.getChangesSince; its backend's getChanges gives the same changes in the same order.
 */
import { next as A } from "@automerge/automerge";

/** The changes of `doc` since `heads` (all for []), in the order Automerge applied them. */
export function changesSince(doc: A.Doc<unknown>, heads: readonly string[]): Uint8Array[] {
  return A.getBackend(doc).getChanges([...heads]);
}
