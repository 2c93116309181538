/**
 * What the Agents page says about profiles (issue #27): colour, tool and provider names a person reads, a model choice
 * in words, where the profiles are kept, and what is not shown. One place, so the list and the form say the same.
 */
import { MAX_AGENT_PROFILES } from "../../../shared/limits.js";
import type { AgentList, AgentProfile } from "../../../shared/api.js";
import type { AgentColor, AgentModelChoice, AgentProvider, AgentToolName } from "../../../shared/schema/agent-profiles.js";

export const AGENT_COLOR_LABELS: Record<AgentColor, string> = {
  blue: "Blue",
  green: "Green",
  teal: "Teal",
  purple: "Purple",
  pink: "Pink",
  orange: "Orange",
  red: "Red",
  gray: "Gray",
};

export const AGENT_TOOL_LABELS: Record<AgentToolName, string> = {
  read_plan: "Read the plan",
  edit_plan: "Edit the plan",
  read_reference: "Read the plan's reference documents",
  read_repository_file: "Read a file of the plan's repository",
  list_repository_tree: "List the repository's folders and files",
  repository_history: "Read the repository's commit history",
  search_repository: "Search the repository's code",
  list_pull_requests: "List the repository's pull requests",
  pull_request_read: "Read a pull request",
  hand_off_plan: "Hand the chat's plan off as a new plan",
};

export const AGENT_PROVIDER_LABELS: Record<AgentProvider, string> = {
  copilot: "GitHub Copilot",
  openai: "OpenAI-compatible",
  anthropic: "Anthropic",
  azure: "Azure OpenAI",
};

export const TEAM_DEFAULT_WORDS = "Team default";

export function modelWords(model: AgentModelChoice): string {
  return model.kind === "team-default" ? TEAM_DEFAULT_WORDS : `${AGENT_PROVIDER_LABELS[model.provider]}, ${model.model}`;
}

export function toolCountWords(profile: AgentProfile): string {
  const n = profile.tools.length;
  return n === 0 ? "no tools" : n === 1 ? "1 tool" : `${n} tools`;
}

/** Where the listed profiles are kept, in one sentence. */
export function scopeWords(list: AgentList): string {
  if (list.teamPending) return "Your team's agents appear once Chopin reaches the team relay; until then only the Planner is shown and nothing can be changed.";
  if (list.scope === "team") return "Shared with your team through the relay: everyone on the team sees the same agents and their changes.";
  return "Kept on this device: there is no team relay. Agents made here stay here when you join a team.";
}

/** Said when profiles another app wrote could not be read here (they are kept, not shown). */
export function unreadableWords(count: number): string | null {
  if (count === 0) return null;
  const which = count === 1 ? "1 agent profile" : `${count} agent profiles`;
  return `${which} could not be read on this app (made by a newer Chopin, damaged, or past the limit of ${MAX_AGENT_PROFILES}) and ${count === 1 ? "is" : "are"} not shown. Nothing was removed.`;
}
