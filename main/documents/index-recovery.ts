/**
 * Rebuilding the local index from the plans in storage, for when the index itself cannot be read (a damaged chunk, a
 * setting naming an id that does not load). Exists because the index is the only list of this device's private plans:
 * starting over with an empty one made every private plan vanish from the app while its bytes sat in storage.
 *
 * What must stay true: nothing is deleted or overwritten here. The unreadable index's chunks stay in storage and its
 * id is kept in settings (LOST_LOCAL_INDEX_SETTING), so it can still be examined; a plan that does not load is named,
 * not dropped silently.
 */
import { isValidDocumentId, type DocumentId, type Repo } from "@automerge/automerge-repo";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import { looksLikePlan, readPlan, type PlanHandle } from "./plan-reader.js";
import { entryOf, upsertEntry, type IndexHandle } from "./workspace-index.js";

/** Settings key holding the id of a local index that could not be read when it was replaced by a rebuilt one. */
export const LOST_LOCAL_INDEX_SETTING = "documents.unreadableLocalIndexId";

export interface IndexRecovery {
  /** The index id the settings named, which did not load. */
  unreadableIndexId: string;
  /** Plans found in storage and listed again. */
  recovered: number;
  /** Stored documents that did not load (damaged): they stay in storage, unlisted. */
  unreadable: string[];
}

/** Lists in `local` every stored plan among `storedIds` (other stored documents, such as indexes, are skipped). */
export async function rebuildLocalIndex(
  repo: Repo,
  local: IndexHandle,
  storedIds: readonly string[],
): Promise<Pick<IndexRecovery, "recovered" | "unreadable">> {
  let recovered = 0;
  const unreadable: string[] = [];
  for (const id of storedIds) {
    if (id === local.documentId || !isValidDocumentId(id)) continue;
    let plan: PlanDocument;
    try {
      const handle = (await repo.find(id as DocumentId)) as PlanHandle;
      if (!looksLikePlan(handle.doc())) continue;
      plan = readPlan(handle);
    } catch {
      unreadable.push(id);
      continue;
    }
    upsertEntry(local, id, entryOf(plan));
    recovered++;
  }
  return { recovered, unreadable };
}

/** What the core says at start after a rebuild (host mode prints it; the Electron shell logs it). */
export function recoveryNote(recovery: IndexRecovery): string {
  const listed = `${recovery.recovered} plan${recovery.recovered === 1 ? "" : "s"}`;
  const damaged =
    recovery.unreadable.length === 0
      ? ""
      : recovery.unreadable.length === 1
        ? " 1 stored document could not be read and stays unlisted in storage."
        : ` ${recovery.unreadable.length} stored documents could not be read and stay unlisted in storage.`;
  return `The list of this device's documents could not be read, so it was rebuilt from the plans in storage (${listed} found).${damaged} The unreadable list is kept in storage (id ${recovery.unreadableIndexId}).`;
}
