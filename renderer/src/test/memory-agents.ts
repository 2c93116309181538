/**
 * The agent-profile part of the window's test double (memory-bridge.ts): the ExperimentalApi and AgentsApi contract
 * kept in memory (shared/api-contract.ts runs against it and the real core alike). One scope, this device's, unless a
 * test plays a relay's team (`scope`); tests play a teammate's edit with `receive` and a newer app's profiles with
 * `unreadable`.
 */
import type { AgentList, AgentProfile, AgentSidebar, AgentsApi, ExperimentalApi, ExperimentalSettings } from "../../../shared/api.js";
import { ChopinError } from "../../../shared/errors.js";
import { MAX_AGENT_PROFILES } from "../../../shared/limits.js";
import {
  AGENT_PROFILE_FIELDS,
  AGENT_TOOL_NAMES,
  DEFAULT_AGENT_COLOR,
  DEFAULT_AGENT_TOOLS,
  PLANNER_AGENT_COLOR,
  PLANNER_AGENT_ID,
  PLANNER_AGENT_NAME,
} from "../../../shared/schema/agent-profiles.js";
import { memoryAgentSidebar, type MemoryAgentSidebar } from "./memory-agent-sidebar.js";

export interface MemoryAgentsDeps {
  now(): number;
  settingsChanged(settings: ExperimentalSettings): void;
  agentsChanged(list: AgentList): void;
  sidebarChanged(sidebar: AgentSidebar): void;
}

export interface MemoryAgents extends AgentsApi, ExperimentalApi {
  /** Plays this run started with --enable-agent-chat. */
  setCommandLine(on: boolean): void;
  /** Plays a teammate's new or changed profile arriving (said to windows as the core says it). */
  receive(profile: AgentProfile): void;
  /** Plays a star arriving from another of the person's devices. */
  receiveStar: MemoryAgentSidebar["receiveStar"];
  /** Where the profiles are kept, and whether the team is still being learnt. */
  state: { scope: AgentList["scope"]; teamPending: boolean; unreadable: number };
}

const collator = new Intl.Collator("en", { sensitivity: "base" });

export function memoryAgents(deps: MemoryAgentsDeps): MemoryAgents {
  let enabled = false;
  let byCommandLine = false;
  const planner: AgentProfile = {
    id: PLANNER_AGENT_ID,
    name: PLANNER_AGENT_NAME,
    color: PLANNER_AGENT_COLOR,
    instructions: "",
    model: { kind: "team-default" },
    tools: [...AGENT_TOOL_NAMES],
    builtIn: true,
    createdAt: 0,
    updatedAt: 0,
  };
  const profiles = new Map<string, AgentProfile>([[planner.id, planner]]);
  let counter = 0;
  const state: MemoryAgents["state"] = { scope: "device", teamPending: false, unreadable: 0 };
  const settings = (): ExperimentalSettings => ({ enableAgentChat: enabled, agentChatByCommandLine: byCommandLine, agentChatOn: enabled || byCommandLine });
  const list = (): AgentList => {
    if (state.teamPending) return { scope: "team", teamPending: true, agents: [{ ...planner, tools: [...AGENT_TOOL_NAMES] }], unreadable: 0 };
    const others = [...profiles.values()].filter((p) => !p.builtIn).sort((a, b) => collator.compare(a.name, b.name) || (a.id < b.id ? -1 : 1));
    return { scope: state.scope, teamPending: false, agents: [profiles.get(PLANNER_AGENT_ID)!, ...others].map((p) => ({ ...p, tools: [...p.tools] })), unreadable: state.unreadable };
  };
  const needOn = () => {
    if (!settings().agentChatOn) throw new ChopinError("agent-chat-disabled", "Agent chat is turned off on this app: turn it on in Settings → Experimental.");
  };
  const writable = () => {
    needOn();
    if (state.teamPending) throw new ChopinError("relay-unavailable", "The team's agents have not reached this device yet.");
  };
  const needFreeName = (name: string, self: string | null) => {
    const taken = [...profiles.values()].find((p) => p.id !== self && collator.compare(p.name, name) === 0);
    if (taken) throw new ChopinError("invalid-input", `${AGENT_PROFILE_FIELDS.name}: another agent is called “${taken.name}”; choose another name.`);
  };
  const sidebar = memoryAgentSidebar({
    list: () => {
      needOn();
      return list();
    },
    writable: () => writable(),
    changed: (view) => {
      if (settings().agentChatOn) deps.sidebarChanged(view);
    },
  });
  const changed = () => {
    if (!settings().agentChatOn) return;
    deps.agentsChanged(list());
    sidebar.profilesChanged();
  };
  const find = (id: string) => {
    const found = profiles.get(id);
    if (!found) throw new ChopinError("agent-not-found", "There is no agent with that id.");
    return found;
  };
  return {
    state,
    getAgentSidebar: sidebar.getAgentSidebar,
    setAgentStarred: sidebar.setAgentStarred,
    recordAgentChatVisit: sidebar.recordAgentChatVisit,
    receiveStar: sidebar.receiveStar,
    setCommandLine(on) {
      byCommandLine = on;
    },
    receive(profile) {
      profiles.set(profile.id, { ...profile, tools: [...profile.tools] });
      changed();
    },
    async getExperimentalSettings() {
      return settings();
    },
    async updateExperimentalSettings(patch) {
      const wasOn = settings().agentChatOn;
      if (patch.enableAgentChat !== undefined) enabled = patch.enableAgentChat;
      deps.settingsChanged(settings());
      if (!wasOn && settings().agentChatOn) changed();
      return settings();
    },
    async listAgents() {
      needOn();
      return list();
    },
    async createAgent(input) {
      writable();
      needFreeName(input.name, null);
      if (profiles.size - 1 >= MAX_AGENT_PROFILES) throw new ChopinError("too-large", `This device keeps at most ${MAX_AGENT_PROFILES} agents besides the Planner: remove one to add another.`);
      const at = deps.now();
      const made: AgentProfile = {
        id: `${(++counter).toString(16).padStart(32, "0")}`,
        name: input.name,
        color: input.color ?? DEFAULT_AGENT_COLOR,
        instructions: input.instructions ?? "",
        model: input.model ?? { kind: "team-default" },
        tools: input.tools ?? [...DEFAULT_AGENT_TOOLS],
        builtIn: false,
        createdAt: at,
        updatedAt: at,
      };
      profiles.set(made.id, made);
      changed();
      return { ...made, tools: [...made.tools] };
    },
    async updateAgent(id, patch) {
      writable();
      if (id === PLANNER_AGENT_ID && patch.name !== undefined && patch.name !== PLANNER_AGENT_NAME) {
        throw new ChopinError("agent-built-in", `${AGENT_PROFILE_FIELDS.name}: the Planner keeps its name.`);
      }
      const before = find(id);
      if (patch.name !== undefined && !before.builtIn) needFreeName(patch.name, id);
      const after: AgentProfile = { ...before, ...patch, updatedAt: deps.now() };
      profiles.set(id, after);
      changed();
      return { ...after, tools: [...after.tools] };
    },
    async removeAgent(id) {
      writable();
      if (id === PLANNER_AGENT_ID) throw new ChopinError("agent-built-in", "The Planner is built in and cannot be removed.");
      find(id);
      profiles.delete(id);
      changed();
    },
  };
}
