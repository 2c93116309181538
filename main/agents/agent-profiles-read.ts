/**
 * Reads a profiles document as the API shows it. The document arrives from teammates' devices, so every profile is
 * checked by the schema (shared/schema/agent-profiles.ts) and one that does not pass (a newer app's, or damaged) is
 * counted, not shown; its data stays in the document untouched.
 *
 * What must stay true: the Planner is always listed, first, named PLANNER_AGENT_NAME whatever its record says (its
 * defaults where its record is missing or unreadable); the others follow by name (case folded), then id, the same
 * order on every device; at most MAX_AGENT_PROFILES of them are listed, the first in that order, the rest counted
 * with the unreadable (creation keeps to the bound here, but a teammate's app may not have).
 */
import type { AgentList, AgentProfile } from "../../shared/api.js";
import { MAX_AGENT_PROFILES } from "../../shared/limits.js";
import { PLANNER_AGENT_ID, PLANNER_AGENT_NAME, plannerDefaults, plannerTools, storedAgentProfileSchema } from "../../shared/schema/agent-profiles.js";

export interface ReadProfiles {
  agents: AgentProfile[];
  unreadable: number;
  /** Profile ids in the document, readable or not (the count bound and removal go by these). */
  ids: Set<string>;
}

/** The Planner as the API shows it before anyone changed it. */
export function plannerProfile(): AgentProfile {
  const defaults = plannerDefaults();
  return { ...defaults, tools: Object.keys(defaults.tools) as AgentProfile["tools"], builtIn: true, createdAt: 0, updatedAt: 0 };
}

const collator = new Intl.Collator("en", { sensitivity: "base" });

export function byListOrder(a: AgentProfile, b: AgentProfile): number {
  if (a.builtIn !== b.builtIn) return a.builtIn ? -1 : 1;
  return collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function readProfiles(doc: unknown): ReadProfiles {
  const raw = (doc as { profiles?: unknown } | undefined)?.profiles;
  const entries = raw !== null && typeof raw === "object" && !Array.isArray(raw) ? Object.entries(raw as Record<string, unknown>) : [];
  const agents: AgentProfile[] = [];
  let unreadable = 0;
  let planner: AgentProfile | null = null;
  for (const [key, value] of entries) {
    const parsed = storedAgentProfileSchema.safeParse(value);
    if (!parsed.success || parsed.data.id !== key) {
      unreadable++;
      continue;
    }
    const { declinedTools, ...fields } = parsed.data;
    const profile: AgentProfile = { ...fields, builtIn: key === PLANNER_AGENT_ID };
    if (profile.builtIn) planner = { ...profile, name: PLANNER_AGENT_NAME, tools: plannerTools(profile.tools, declinedTools) };
    else agents.push(profile);
  }
  const listed = agents.sort(byListOrder).slice(0, MAX_AGENT_PROFILES);
  unreadable += agents.length - listed.length;
  return { agents: [planner ?? plannerProfile(), ...listed], unreadable, ids: new Set(entries.map(([key]) => key)) };
}

export function listOf(read: ReadProfiles, scope: AgentList["scope"]): AgentList {
  return { scope, teamPending: false, agents: read.agents, unreadable: read.unreadable };
}
