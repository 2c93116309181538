/**
 * The MCP tools over agent profiles (issue #27), in the one tool registry's terms: `list_agents` for now (the chat
 * tools come with the chat). It reads what the window's Agents page shows, through the same service, so it refuses
 * with 'agent-chat-disabled' while agent chat is off on this app, and nothing is read then.
 */
import { z } from "zod";
import type { AgentList } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import type { AgentProfiles } from "../agents/agent-profiles.js";
import { defineTool, type AnyTool } from "../util/tool-registry.js";
import type { ToolContext } from "./tools.js";

/** What the agent tools use: the profiles that apply on this app now. */
export type ToolAgents = Pick<AgentProfiles, "list">;

export const AGENT_TOOL_INPUTS = {
  list_agents: z.object({}).strict(),
} as const;

function need(context: ToolContext): ToolAgents {
  if (!context.agents) throw new ChopinError("not-configured", "Agent profiles are not available here.");
  return context.agents;
}

/** A profile as an agent reads it: everything the Agents page shows, times as ISO strings. */
function listed(list: AgentList) {
  return {
    scope: list.scope,
    teamPending: list.teamPending,
    unreadable: list.unreadable,
    agents: list.agents.map(({ createdAt, updatedAt, ...profile }) => ({
      ...profile,
      ...(createdAt > 0 ? { createdAt: new Date(createdAt).toISOString() } : {}),
      ...(updatedAt > 0 ? { updatedAt: new Date(updatedAt).toISOString() } : {}),
    })),
  };
}

export const AGENT_TOOL_DEFINITIONS: readonly AnyTool<ToolContext>[] = [
  defineTool({
    name: "list_agents",
    description:
      "List the agent profiles of this Chopin workspace (experimental: agent chat must be on in this app's Settings → Experimental, else 'agent-chat-disabled'): the built-in Planner first, then the others by name, each with its id, name, avatar colour, instructions (Markdown), model ({kind: 'team-default'} or {kind: 'provider', provider, model}) and the tools it may use. scope says whose profiles they are: 'team' (shared through the relay) or 'device'; teamPending: the relay's team is not known yet, so only the Planner is listed; unreadable counts profiles another app wrote that this one cannot read.",
    input: AGENT_TOOL_INPUTS.list_agents,
    errors: ["agent-chat-disabled", "storage-failure"],
    async handler(_input, context) {
      return listed(await need(context).list());
    },
  }),
];
