/**
 * Keeps the workspace indexes and the text snapshots following every change to a document, local or remote, and
 * reports which ids changed. What must stay true: upkeep only reads the plan (a listener never migrates: that is a
 * write), touches nothing but current-schema plans and the two indexes, and a damaged or newer-schema plan stays
 * listed with its last good entry.
 */
import type { next as A } from "@automerge/automerge";
import type { DocumentId } from "@automerge/automerge-repo";
import type { CoalescedIds } from "./change-watcher.js";
import type { Indexes } from "./indexes.js";
import { parsePlan } from "./plan-reader.js";
import type { SnapshotWriter } from "./snapshot-writer.js";
import { entryOf, idsFromIndexPatches, type IndexHandle } from "./workspace-index.js";

/** The part of a DocHandle upkeep reads. */
export interface WatchedHandle {
  documentId: DocumentId;
  doc(): unknown;
  isReady(): boolean;
}

/** Refreshes the plan's index entry; false when the handle holds no current-schema plan. */
export function refreshIndexEntry(indexes: Indexes, handle: WatchedHandle): boolean {
  // A handle that is still loading, unavailable or deleted has nothing to index (and doc() would throw).
  if (!handle.isReady()) return false;
  const doc = handle.doc() as { kind?: unknown } | undefined;
  if (doc?.kind !== "plan") return false;
  try {
    indexes.refresh(handle.documentId, entryOf(parsePlan(doc)));
  } catch {
    // A damaged or newer-schema document stays listed with its last good entry.
  }
  return true;
}

/**
 * The change watcher's listener: an index change reports the entries it touched; a plan change refreshes its entry.
 * A change of the team index first lets the indexes sort out what it means for sharing (Indexes.teamListChanged: a
 * plan newly named is the team's only when this device does not hold it; a shared plan whose entry went was removed by
 * a teammate); the removed ids go to `teamRemoved` (which keeps the ones this device holds loaded), and
 * `teamListChanged` hears every change (team-prefetch.ts fetches what it newly names).
 */
export function indexUpkeep(
  indexes: Indexes,
  changed: CoalescedIds,
  snapshots: SnapshotWriter,
  teamRemoved: (ids: string[]) => void = () => {},
  teamListChanged: () => void = () => {},
): (handle: WatchedHandle, patches: A.Patch[] | null) => void {
  return (handle, patches) => {
    const id = handle.documentId;
    if (id === indexes.local.documentId || id === indexes.team?.documentId) {
      if (id === indexes.team?.documentId) {
        const removed = indexes.teamListChanged(patches && !replacesList(patches) ? idsFromIndexPatches(patches, handle as IndexHandle) : null);
        if (removed.length > 0) teamRemoved(removed);
        teamListChanged();
      }
      changed.add(patches ? idsFromIndexPatches(patches, handle as IndexHandle) : indexes.list().keys());
      return;
    }
    if (refreshIndexEntry(indexes, handle)) {
      changed.add([id]);
      snapshots.changed(handle);
    }
  };
}

/** Whether a patch replaces the list as a whole (its removed entries are then not named one by one). */
function replacesList(patches: readonly A.Patch[]): boolean {
  return patches.some((patch) => patch.path.length < 2);
}
