/**
 * A teammate deleted a shared document on their device, which removes it from the team index. This device keeps its
 * copy when it holds one loaded (an open or recently used plan): listed as private with the time it left the team,
 * so nothing typed here is stranded out of every list. A copy not loaded stays in storage untouched: looking up an
 * id is only done for loaded handles (plan-access.ts: a find() that fails poisons the repo's flush).
 */
import type { DocHandle } from "@automerge/automerge-repo";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import type { PlanAccess } from "./plan-access.js";
import { parsePlan } from "./plan-reader.js";
import { entryOf } from "./workspace-index.js";

export function keepTeamRemoved(access: PlanAccess, ids: readonly string[]): void {
  const kept: string[] = [];
  for (const id of ids) {
    const handle = access.repo.handles[id as keyof typeof access.repo.handles] as DocHandle<PlanDocument> | undefined;
    if (!handle?.isReady()) continue;
    let entry;
    try {
      entry = entryOf(parsePlan(handle.doc()));
    } catch {
      continue; // not a plan this app can read: nothing to list
    }
    if (access.indexes.keepAfterTeamRemoval(id, entry, access.now())) kept.push(id);
  }
  if (kept.length > 0) access.changed.add(kept);
}
