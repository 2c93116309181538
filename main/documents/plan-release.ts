/**
 * Lets go of a plan team prefetch brought onto this device once it is stored, unless someone uses it. Automerge 2.2.9
 * holds a loaded text at ~300-400 bytes per character (a 5 KB plan of 500 changes: ~2 MB of WASM memory), and
 * automerge-repo never unloads a handle, so a core that prefetched a team of 500 plans held ~1 GB, for the rest of
 * the session (WASM memory never shrinks), for plans nobody here had opened (resource audit). A released plan opens
 * from storage like any plan not loaded at start; a teammate's later edit loads it again through the sync protocol.
 *
 * What must stay true: a plan leaves memory only with everything it holds on disk (flushed, with no change arriving
 * meanwhile) and its text snapshot written; a plan a person, an agent or the API found this session, or a window
 * syncs, stays loaded; letting go never writes to storage (automerge-repo 2.5.6's removeFromCache empties the handle
 * before detaching it, and the Repo's save listener would then save the empty document: sync-relay/eviction.ts).
 */
import { next as A } from "@automerge/automerge";
import type { DocHandle, DocumentId, Repo } from "@automerge/automerge-repo";
import type { RepoWatch } from "./change-watcher.js";
import type { SnapshotWriter } from "./snapshot-writer.js";
import { unloadDocument } from "../../shared/unload-document.js";

export interface PlanReleaseContext {
  repo: Repo;
  snapshots: SnapshotWriter;
  watch: RepoWatch | null;
  /** How long after release the plan's Automerge memory is freed (default UNLOADED_DOC_FREE_DELAY_MS). */
  freeDelayMs?: number;
}

/** Releases `documentId`'s handle unless `keep` says someone uses it; true when it left memory. */
export async function releasePlan(context: PlanReleaseContext, documentId: string, keep: (documentId: string) => boolean): Promise<boolean> {
  const { repo } = context;
  const handle = repo.handles[documentId as DocumentId] as DocHandle<unknown> | undefined;
  if (!handle?.isReady() || keep(documentId)) return false;
  context.snapshots.writeNow(documentId);
  const heads = A.getHeads(handle.doc() as A.Doc<unknown>).join(",");
  await repo.flush([documentId as DocumentId]);
  // Checked again after the flush: a change that arrived meanwhile is not on disk yet, and someone may have opened it.
  if (!handle.isReady() || keep(documentId) || A.getHeads(handle.doc() as A.Doc<unknown>).join(",") !== heads) return false;
  context.watch?.untrack(handle);
  await unloadDocument(repo, handle, context.freeDelayMs);
  return repo.handles[documentId as DocumentId] === undefined;
}
