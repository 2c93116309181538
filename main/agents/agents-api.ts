/**
 * The experimental-settings and agent-profile parts of ChopinApi (issue #27), built beside their services: arguments
 * are checked at the boundary (shared/api-arguments.ts) before either sees them, and every window hears a change of
 * the switch. Turning agent chat on opens the profiles that apply and says them ("agents-changed"). The sidebar's
 * Agents (stars and recents) are part of the agents' API: they are a view of the profiles.
 */
import type { AgentsApi, ExperimentalApi, ExperimentalSettings } from "../../shared/api.js";
import { checkedApi } from "../util/checked-api.js";
import type { AgentChatSwitch } from "./agent-chat-switch.js";
import type { AgentProfiles } from "./agent-profiles.js";
import type { AgentSidebarService } from "./agent-sidebar.js";

export function createExperimentalApi(chatSwitch: Pick<AgentChatSwitch, "get" | "update">, profiles: Pick<AgentProfiles, "switched">, changed: (settings: ExperimentalSettings) => void): ExperimentalApi {
  return checkedApi<ExperimentalApi>({
    getExperimentalSettings: async () => chatSwitch.get(),
    async updateExperimentalSettings(patch) {
      const before = chatSwitch.get();
      const after = chatSwitch.update(patch);
      changed(after);
      if (after.agentChatOn !== before.agentChatOn) profiles.switched();
      return after;
    },
  });
}

export function createAgentsApi(profiles: Pick<AgentProfiles, "list" | "create" | "update" | "remove">, sidebar: Pick<AgentSidebarService, "read" | "setStarred" | "recordVisit">): AgentsApi {
  return checkedApi<AgentsApi>({
    listAgents: () => profiles.list(),
    createAgent: (input) => profiles.create(input),
    updateAgent: (id, patch) => profiles.update(id, patch),
    removeAgent: (id) => profiles.remove(id),
    getAgentSidebar: () => sidebar.read(),
    setAgentStarred: (agentId, starred) => sidebar.setStarred(agentId, starred),
    recordAgentChatVisit: (agentId) => sidebar.recordVisit(agentId),
  });
}
