/**
 * Removing a damaged plan from this device. A plan whose stored copy cannot be read (PlanAccess remembers it) could
 * never be deleted: delete asks for an archived plan, and archiving writes to a document that cannot load, so it
 * stayed in the list for good. Such a plan may be removed without archiving. What must stay true:
 * - only a plan PlanAccess found damaged this session takes this way; a loadable live plan still needs archiving;
 * - its bytes are set aside (main/store/damaged-chunks.ts), never destroyed, before it leaves the indexes: when
 *   setting them aside fails, the plan stays listed as it was;
 * - afterwards nothing of it is left in this session: no index entry, snapshot, stuck handle or damaged mark.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import { ChopinError } from "../../shared/errors.js";
import { writeWhole } from "../util/save-failure.js";
import type { PlanAccess } from "./plan-access.js";

/** Moves a document's stored chunks out of automerge-repo's storage, keeping them; the app core's is SQLite's. */
export type SetAsideChunks = (documentId: string) => void;

/** Whether `error`, thrown while loading `documentId` for a delete, means the plan is damaged here. */
export function isDamagedRefusal(access: PlanAccess, documentId: string, error: unknown): boolean {
  return error instanceof ChopinError && error.code === "storage-failure" && access.isDamaged(documentId);
}

export async function removeDamagedPlan(
  access: PlanAccess,
  documentId: DocumentId,
  setAside: SetAsideChunks,
  beforeLeaving?: (documentId: string) => Promise<void>,
): Promise<void> {
  await beforeLeaving?.(documentId);
  // A database that refuses to keep the bytes (a full disk) refuses the removal: 'storage-failure', nothing changed.
  writeWhole(() => setAside(documentId));
  access.snapshots.forget(documentId);
  access.indexes.remove(documentId);
  await letGoOfDamagedCopy(access, documentId);
}

/**
 * Lets go of what this session holds of a damaged plan whose chunks are set aside (removed, or to be fetched again,
 * damaged-refetch.ts). The failed handle is stuck loading in the Repo's cache: it goes, so a copy a teammate holds can
 * come back as a fresh document; its save listener never ran (it never became ready), so nothing is written for it.
 * The damaged mark goes too, and the storage subsystem's memory of the document.
 */
export async function letGoOfDamagedCopy(access: PlanAccess, documentId: DocumentId): Promise<void> {
  if (access.repo.handles[documentId]) access.repo.delete(documentId);
  access.forgetUse(documentId);
  await access.repo.storageSubsystem?.removeDoc(documentId);
  access.changed.add([documentId]);
}
