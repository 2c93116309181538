/**
 * The sidebar part of the agents' test double (memory-agents.ts): stars and chat visits kept in memory, one person,
 * with the core's rules (main/agents/agent-sidebar.ts, agent-stars.ts): starred alphabetically, then the
 * AGENT_SIDEBAR_RECENTS most recent unstarred visits; agents no longer listed in neither; MAX_AGENT_STARS refused past
 * it. Tests play the person's other device starring with `receiveStar`.
 */
import type { AgentList, AgentProfile, AgentSidebar, AgentsApi } from "../../../shared/api.js";
import { ChopinError } from "../../../shared/errors.js";
import { AGENT_SIDEBAR_RECENTS, MAX_AGENT_STARS } from "../../../shared/limits.js";

export interface MemoryAgentSidebarDeps {
  /** The profiles listed now ('agent-chat-disabled' while off). */
  list(): AgentList;
  /** Refuses as a write of the profiles would ('agent-chat-disabled', 'relay-unavailable'). */
  writable(): void;
  changed(sidebar: AgentSidebar): void;
}

export type MemoryAgentSidebar = Pick<AgentsApi, "getAgentSidebar" | "setAgentStarred" | "recordAgentChatVisit"> & {
  /** Plays a star or unstar arriving from another of the person's devices. */
  receiveStar(agentId: string, starred: boolean): void;
  /** Says the sidebar again (the profiles changed). */
  profilesChanged(): void;
};

const collator = new Intl.Collator("en", { sensitivity: "base" });
const byName = (a: AgentProfile, b: AgentProfile) => collator.compare(a.name, b.name) || (a.id < b.id ? -1 : 1);

export function memoryAgentSidebar(deps: MemoryAgentSidebarDeps): MemoryAgentSidebar {
  const stars = new Set<string>();
  /** Agent ids, most recent visit last. */
  let visits: string[] = [];
  const view = (): AgentSidebar => {
    const list = deps.list();
    if (list.teamPending) return { starred: [], recent: [] };
    const entry = (a: AgentProfile) => ({ id: a.id, name: a.name, color: a.color });
    const byId = new Map(list.agents.map((a) => [a.id, a]));
    const starred = list.agents.filter((a) => stars.has(a.id)).sort(byName).slice(0, MAX_AGENT_STARS);
    const recent = [...visits].reverse().filter((id) => byId.has(id) && !stars.has(id)).slice(0, AGENT_SIDEBAR_RECENTS);
    return { starred: starred.map(entry), recent: recent.map((id) => entry(byId.get(id)!)) };
  };
  const say = () => {
    // Nothing is said while agent chat is off (the list refuses), as in the core.
    let now: AgentSidebar;
    try {
      now = view();
    } catch {
      return;
    }
    deps.changed(now);
  };
  const needAgent = (agentId: string) => {
    deps.writable();
    if (!deps.list().agents.some((a) => a.id === agentId)) throw new ChopinError("agent-not-found", "There is no agent with that id: it may have been removed, here or by a teammate. Nothing was changed.");
  };
  return {
    async getAgentSidebar() {
      return view();
    },
    async setAgentStarred(agentId, starred) {
      needAgent(agentId);
      if (stars.has(agentId) === starred) return view();
      if (starred) {
        const listed = new Set(deps.list().agents.map((a) => a.id));
        if ([...stars].filter((id) => listed.has(id)).length >= MAX_AGENT_STARS) throw new ChopinError("too-large", `You can star at most ${MAX_AGENT_STARS} agents: unstar one to star another.`);
        stars.add(agentId);
      } else stars.delete(agentId);
      say();
      return view();
    },
    async recordAgentChatVisit(agentId) {
      needAgent(agentId);
      visits = [...visits.filter((id) => id !== agentId), agentId];
      say();
      return view();
    },
    receiveStar(agentId, starred) {
      if (starred) stars.add(agentId);
      else stars.delete(agentId);
      say();
    },
    profilesChanged: say,
  };
}
