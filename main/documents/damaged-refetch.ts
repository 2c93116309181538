/**
 * Getting the team's copy of a damaged shared plan. Removing a damaged plan (damaged-removal.ts) takes a shared one
 * off the team's list, as a delete does, though the relay and teammates hold good copies: the better recovery is to
 * set this device's unreadable bytes aside and fetch the plan again, as a teammate's new plan is fetched.
 * What must stay true:
 * - only a plan PlanAccess found damaged this session, and shared with the team, takes this way (the caller checks
 *   that a relay is configured);
 * - its bytes are set aside (never destroyed) before anything else: when that fails, nothing changed;
 * - the plan stays listed, here and on the team's list, whatever the fetch does; a fetch that fails now is made again
 *   on the next open, and by team prefetch once the relay answers (the deleted handle leaves its "held" count).
 */
import type { DocumentId } from "@automerge/automerge-repo";
import type { DocumentDetail } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import { DAMAGED_REFETCH_WAIT_MS } from "../util/limits.js";
import { writeWhole } from "../util/save-failure.js";
import { letGoOfDamagedCopy, type SetAsideChunks } from "./damaged-removal.js";
import type { PlanAccess } from "./plan-access.js";

export async function refetchDamagedPlan(
  access: PlanAccess,
  id: string,
  setAside: SetAsideChunks,
  waitMs: number = DAMAGED_REFETCH_WAIT_MS,
): Promise<DocumentDetail> {
  const documentId = access.parseId(id);
  if (!access.isDamaged(documentId)) {
    throw new ChopinError("invalid-input", "This device's copy of that document reads fine: there is nothing to fetch again.");
  }
  if (!access.isShared(documentId)) {
    throw new ChopinError(
      "not-shared",
      "That document is private to this device, so no teammate or relay holds another copy of it. It can only be removed.",
    );
  }
  // A database that refuses to keep the bytes (a full disk) refuses the refetch: 'storage-failure', nothing changed.
  writeWhole(() => setAside(documentId));
  // Without the stuck handle, the next find asks the relay.
  await letGoOfDamagedCopy(access, documentId);
  return fetchTeamCopy(access, documentId, waitMs);
}

/** Finds the plan again (from the relay now); a refusal says the bytes are aside and the fetch goes on. */
async function fetchTeamCopy(access: PlanAccess, documentId: DocumentId, waitMs: number): Promise<DocumentDetail> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("late")), waitMs);
  });
  const loading = access.load(documentId);
  // Past the wait, a later refusal of the load is nobody's to hear: unhandled, it would end the process.
  loading.catch(() => undefined);
  try {
    const { handle, plan } = await Promise.race([loading, late]);
    return access.detailOf(handle, plan);
  } catch {
    throw new ChopinError(
      "relay-unavailable",
      "This device's unreadable copy is set aside, and the team's copy has not arrived yet: it opens once the relay sends it.",
      { documentId },
    );
  } finally {
    clearTimeout(timer);
  }
}
