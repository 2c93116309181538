/**
 * What an agent's profile changes in a chat's turns (issue #27): the Planner's turn runner, lease, fenced writes and
 * gate run an agent chat as they run a plan's Planner, with three differences taken from the profile.
 *
 * - Instructions: added to the system message after the Planner's base directive, between a header and a footer, every
 *   line marked with `│ ` (as turn-context.ts marks message text), so no line of them can end the section early or
 *   pose as the base directive. They are the team's configuration of the agent, so they are followed as instructions
 *   (unlike a message's content), within the base directive.
 * - Tools: the session gets only the tools the profile allows, plus read_plan always: the chat's own plan is where the
 *   agent drafts, reading it changes nothing, and edit_plan needs the revision read_plan gives.
 * - Model: a profile that names a provider kind applies its model when that kind is the provider this app runs on
 *   (its Settings → Planner or command line; "copilot" when it runs on the person's Copilot access); otherwise, and
 *   for "the team default", the app's own model. A provider's address and key are each device's, never a profile's.
 *
 * What must stay true: a profile only ever narrows the tools; the base directive stays first and whole.
 */
import type { AgentModelChoice } from "../../shared/schema/agent-profiles.js";
import type { PlannerProvider, PlannerTool } from "./copilot-runtime.js";

/** The agent a chat's turns run as: its name, instructions, allowed tools and model choice. */
export interface ChatAgent {
  name: string;
  instructions: string;
  tools: readonly string[];
  model: AgentModelChoice;
}

/** Always in a chat's session, whatever the profile says. */
export const ALWAYS_ALLOWED_AGENT_TOOLS: readonly string[] = ["read_plan"];

export const AGENT_INSTRUCTIONS_BEGIN = "=== The agent's instructions (its profile, set by the team), each line marked │ ===";
export const AGENT_INSTRUCTIONS_END = "=== End of the agent's instructions ===";

/** The system message's section for the agent, after the base directive. */
export function agentSystemSection(agent: ChatAgent): string {
  const lines = [
    `In this conversation you act as the agent "${agent.name}", in one person's chat with you: the plan is the chat's own, where you draft. Where this section and the directive above differ, the directive above holds.`,
  ];
  const instructions = agent.instructions.trim();
  if (instructions !== "") lines.push(AGENT_INSTRUCTIONS_BEGIN, ...instructions.split(/\r\n|\r|\n/).map((line) => `│ ${line}`), AGENT_INSTRUCTIONS_END);
  return lines.join("\n");
}

/** The session's tools narrowed to the profile's (read_plan always kept). */
export function agentTools<T extends Pick<PlannerTool<never>, "name">>(tools: readonly T[], agent: ChatAgent): T[] {
  const allowed = new Set([...agent.tools, ...ALWAYS_ALLOWED_AGENT_TOOLS]);
  return tools.filter((tool) => allowed.has(tool.name));
}

/** The provider a chat's turn runs on: the profile's model where it names this app's provider kind, else the app's. */
export function agentProvider(provider: PlannerProvider, agent: ChatAgent): PlannerProvider {
  const model = agent.model;
  return model.kind === "provider" && model.provider === provider.type ? { ...provider, model: model.model } : provider;
}

/** What of the agent a running session was made with: a change (instructions, tools, model) makes a fresh one. */
export function agentSessionKey(agent: ChatAgent | null): string {
  return agent === null ? "" : JSON.stringify([agent.name, agent.instructions, [...agent.tools].sort(), agent.model]);
}
