/**
 * The Planner part of ChopinApi (issue #25), built beside its service: arguments are checked at the boundary
 * (shared/api-arguments.ts) and a plan id is parsed like any other.
 */
import type { PlannerApi } from "../../shared/api.js";
import { parseDocumentId } from "../documents/document-id.js";
import { checkedApi } from "../util/checked-api.js";
import type { PlannerOwnership } from "./planner-ownership.js";

export function createPlannerApi(ownership: Pick<PlannerOwnership, "state" | "reset">): PlannerApi {
  return checkedApi<PlannerApi>({
    getPlannerState: (id) => ownership.state(parseDocumentId(id)),
    resetPlannerOwnership: (id) => ownership.reset(parseDocumentId(id)),
  });
}
