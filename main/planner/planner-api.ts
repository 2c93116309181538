/**
 * The Planner part of ChopinApi (issues #25, #26: ownership, and this app's Planner settings), built beside its service: arguments are checked at the boundary
 * (shared/api-arguments.ts) and a plan id is parsed like any other.
 */
import type { PlannerApi, PlannerSettings, PlannerSettingsPatch } from "../../shared/api.js";
import { parseDocumentId } from "../documents/document-id.js";
import { checkedApi } from "../util/checked-api.js";
import type { PlannerOwnership } from "./planner-ownership.js";

export interface PlannerSettingsAccess {
  get(): PlannerSettings;
  update(patch: PlannerSettingsPatch): Promise<PlannerSettings>;
}

export function createPlannerApi(ownership: Pick<PlannerOwnership, "state" | "reset">, settings: PlannerSettingsAccess): PlannerApi {
  return checkedApi<PlannerApi>({
    getPlannerSettings: async () => settings.get(),
    updatePlannerSettings: (patch) => settings.update(patch),
    getPlannerState: (id) => ownership.state(parseDocumentId(id)),
    resetPlannerOwnership: (id) => ownership.reset(parseDocumentId(id)),
  });
}
