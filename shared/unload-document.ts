/**
 * Takes a ready document out of a Repo's memory, for the relay's eviction and the core's release of a prefetched plan.
 * The caller has flushed it. Two things automerge-repo 2.5.6's removeFromCache does not do are done here:
 * - it unloads the handle (its doc becomes empty) BEFORE detaching it, and the Repo's save listener then saves that
 *   empty doc, which can compact the stored chunks away (data loss, seen in sync-relay/eviction.test.ts): the
 *   handle's listeners are detached first, since it is discarded anyway;
 * - it only drops the reference to the old document, whose WASM memory then waits for V8 to collect a small wrapper
 *   (a relay hit the 4 GB ceiling that way): the old document is freed explicitly (free-unloaded-doc.ts).
 */
import type { DocHandle, DocumentId, Repo } from "@automerge/automerge-repo";
import { freeUnloadedDocLater } from "./free-unloaded-doc.js";

/** `freeDelayMs`: how long until the old document is freed (default UNLOADED_DOC_FREE_DELAY_MS). */
export async function unloadDocument(repo: Repo, handle: DocHandle<unknown>, freeDelayMs?: number): Promise<void> {
  handle.removeAllListeners("heads-changed");
  handle.removeAllListeners("change");
  const unloaded = handle.doc();
  await repo.removeFromCache(handle.documentId as DocumentId);
  freeUnloadedDocLater(unloaded, freeDelayMs);
}
