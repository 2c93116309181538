/**
 * Whose turns a plan runs (issue #27), for the turn runner: a plan marked as an agent chat's runs as that agent, with
 * its profile as the current scope holds it now (read at every turn, so an edit of the profile applies from the next
 * turn, in a fresh session); any other plan is the Planner's. While agent chat is off here, a chat's messages wait
 * ('paused': the seed's "prevents new chat execution"); a profile no longer held is answered so, without a model.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import type { AgentProfile, DocumentDetail } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import type { TurnAgent } from "../planner/turn-runner.js";

export interface ChatAgentDeps {
  plans: { getDocument(id: string): Promise<DocumentDetail> };
  profiles: { find(agentId: string): Promise<AgentProfile> };
}

export function chatAgentOf(deps: ChatAgentDeps): (planId: DocumentId) => Promise<TurnAgent> {
  return async (planId) => {
    const mark = (await deps.plans.getDocument(planId)).agentChat;
    if (!mark) return null;
    try {
      const profile = await deps.profiles.find(mark.agentId);
      return { kind: "agent", agent: { name: profile.name, instructions: profile.instructions, tools: profile.tools, model: profile.model } };
    } catch (error) {
      if (error instanceof ChopinError && error.code === "agent-chat-disabled") return { kind: "paused" };
      if (error instanceof ChopinError && error.code === "agent-not-found") {
        return { kind: "gone", answer: "This agent's profile is not among this team's agents any more (it was removed, or this app now uses another team's), so it could not answer." };
      }
      throw error;
    }
  };
}
