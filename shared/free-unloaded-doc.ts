/**
 * Gives back the Automerge memory of a document a Repo let go of (relay eviction, the core releasing a prefetched
 * plan). automerge-repo's removeFromCache only drops its reference: the document's WASM memory returns when V8
 * collects the small JS object wrapping it, which a process with a quiet JS heap may not do for a long time. A relay
 * that served a new member's prefetch of 1,000 plans reached the 4 GB WASM ceiling with 2 documents loaded, and every
 * later load failed (resource audit; a 5 KB plan holds ~2 MB in Automerge 2.2.9).
 *
 * What must stay true: it is called only for a document no handle holds any more, and the free waits
 * UNLOADED_DOC_FREE_DELAY_MS, so whatever still holds the old document (a throttled save of its last change, a sync
 * round already scheduled) is done with it first; a free that fails is ignored; the timer never keeps a process alive.
 */
import { next as A } from "@automerge/automerge";
import { UNLOADED_DOC_FREE_DELAY_MS } from "./limits.js";

export function freeUnloadedDocLater(doc: unknown, delayMs: number = UNLOADED_DOC_FREE_DELAY_MS): void {
  if (doc === undefined || doc === null) return;
  const timer = setTimeout(() => {
    try {
      A.free(doc as A.Doc<unknown>);
    } catch {
      // Already freed, or not an Automerge document: nothing to give back.
    }
  }, delayMs);
  timer.unref?.();
}
