/**
 * A teammate deleted a shared document on their device, which removes it from the team index; Indexes has already
 * stopped sharing it and recorded when (teamListChanged). This device keeps listing its copy when it holds one loaded
 * (an open or recently used plan), private, so nothing typed here is stranded out of every list. A copy not loaded
 * stays in storage untouched: looking up an id is only done for loaded handles (plan-access.ts: a find() that fails
 * poisons the repo's flush).
 */
import type { DocHandle } from "@automerge/automerge-repo";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import type { PlanAccess } from "./plan-access.js";
import { parsePlan } from "./plan-reader.js";
import { entryOf } from "./workspace-index.js";

export function keepTeamRemoved(access: PlanAccess, ids: readonly string[]): void {
  for (const id of ids) {
    const handle = access.repo.handles[id as keyof typeof access.repo.handles] as DocHandle<PlanDocument> | undefined;
    if (!handle?.isReady()) continue;
    let entry;
    try {
      entry = entryOf(parsePlan(handle.doc()));
    } catch {
      continue; // not a plan this app can read: nothing to list
    }
    access.indexes.keepAfterTeamRemoval(id, entry);
  }
  // Every one of them changed: private now, and its page says when it left the team.
  access.changed.add(ids);
}
