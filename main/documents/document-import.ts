/**
 * Adds a saved Automerge document (a plan, or an older draft that migrates to one) to this device as a new document.
 * What must stay true: anything else is refused with 'invalid-document' and nothing of it is kept (the imported
 * handle is deleted again), as is an import whose share the database refuses ('storage-failure'); an accepted import
 * is indexed, watched and snapshotted like a created document. A teammate's agent chat plan (its mark names another
 * person) is refused 'forbidden', as every change of one is (plan-access.ts needOwnChat).
 */
import type { DocumentDetail } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import type { PlanAccess } from "./plan-access.js";
import { readPlan, type PlanHandle } from "./plan-reader.js";

export function importDocument(access: PlanAccess, bytes: Uint8Array, shared: boolean): DocumentDetail {
  let handle: PlanHandle;
  try {
    handle = access.repo.import<PlanDocument>(bytes);
  } catch {
    throw new ChopinError("invalid-document", "That file is not a saved Automerge document.");
  }
  let plan: PlanDocument;
  try {
    plan = readPlan(handle);
  } catch (error) {
    access.repo.delete(handle.documentId);
    throw error instanceof ChopinError && error.code !== "not-found"
      ? error
      : new ChopinError("invalid-document", "That document is not a Chopin plan.");
  }
  if (access.isOthersChat(plan)) {
    // A teammate's agent chat plan is theirs to change: a copy of it made here would be a change in their name.
    access.repo.delete(handle.documentId);
    throw new ChopinError("forbidden", "That file is a teammate's chat with an agent: only they change its plan, so it was not imported.");
  }
  access.track(handle);
  access.enterNew(handle, plan, shared);
  access.snapshots.changed(handle);
  access.changed.add([handle.documentId]);
  return access.detailOf(handle, plan);
}
