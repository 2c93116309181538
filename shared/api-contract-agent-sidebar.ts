/**
 * Test support (imported only by the contract suite, shared/api-contract.ts): what the sidebar's Agents of issue #27
 * must do (stars and recents), run against the real core and the window's test double alike. Both start local-only
 * with agent chat off; the person's other devices and teammates are the core's own tests'
 * (main/core/agent-sidebar-relay.test.ts).
 */
import { expect } from "vitest";
import type { AgentSidebar, ChopinApi } from "./api.js";
import type { ContractCase, ContractSubject } from "./api-contract.js";
import { AGENT_SIDEBAR_RECENTS, MAX_AGENT_STARS } from "./limits.js";
import { PLANNER_AGENT_ID } from "./schema/agent-profiles.js";

const disabled = { code: "agent-chat-disabled", message: expect.stringMatching(/Settings → Experimental/) };
const unknownAgent = "f".repeat(32);
const names = (sidebar: AgentSidebar) => ({ starred: sidebar.starred.map((a) => a.name), recent: sidebar.recent.map((a) => a.name) });

/** The next "agent-sidebar-changed" whose names are `wanted`. */
function heard(subject: ContractSubject, wanted: ReturnType<typeof names>): Promise<void> {
  return new Promise((resolve) => {
    const stop = subject.on("agent-sidebar-changed", (sidebar) => {
      if (JSON.stringify(names(sidebar)) !== JSON.stringify(wanted)) return;
      stop();
      resolve();
    });
  });
}

async function agentsNamed(api: ChopinApi, ...wanted: string[]): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const name of wanted) ids[name] = (await api.createAgent({ name })).id;
  return ids;
}

export function agentSidebarContractCases(run: ContractCase): void {
  run("the sidebar's Agents are refused in words while agent chat is off, and bad arguments name what was wrong", async ({ api }) => {
    await expect(api.getAgentSidebar()).rejects.toMatchObject(disabled);
    await expect(api.setAgentStarred(PLANNER_AGENT_ID, true)).rejects.toMatchObject(disabled);
    await expect(api.recordAgentChatVisit(PLANNER_AGENT_ID)).rejects.toMatchObject(disabled);
    await api.updateExperimentalSettings({ enableAgentChat: true });
    expect(await api.getAgentSidebar()).toEqual({ starred: [], recent: [] });
    await expect(api.setAgentStarred(PLANNER_AGENT_ID, "yes" as never)).rejects.toMatchObject({ code: "invalid-input", message: expect.stringContaining("starred") });
    await expect(api.recordAgentChatVisit("Not an id")).rejects.toMatchObject({ code: "invalid-input" });
    await expect(api.setAgentStarred(unknownAgent, true)).rejects.toMatchObject({ code: "agent-not-found" });
    await expect(api.recordAgentChatVisit(unknownAgent)).rejects.toMatchObject({ code: "agent-not-found" });
    expect(await api.getAgentSidebar()).toEqual({ starred: [], recent: [] });
  });

  run(`starred alphabetically, then the ${AGENT_SIDEBAR_RECENTS} most recent unstarred chat visits; removed agents drop out; each change said`, async (subject) => {
    const { api } = subject;
    await api.updateExperimentalSettings({ enableAgentChat: true });
    const id = await agentsNamed(api, "Echo", "delta", "Charlie", "Bravo", "Alpha");
    // Stars need no visit; they list by name whatever the case, the Planner among them.
    const starredHeard = heard(subject, { starred: ["Charlie", "Echo"], recent: [] });
    await api.setAgentStarred(id.Echo!, true);
    expect(names(await api.setAgentStarred(id.Charlie!, true))).toEqual({ starred: ["Charlie", "Echo"], recent: [] });
    await starredHeard;
    expect(names(await api.setAgentStarred(PLANNER_AGENT_ID, true))).toEqual({ starred: ["Charlie", "Echo", "Planner"], recent: [] });
    expect(names(await api.setAgentStarred(PLANNER_AGENT_ID, true))).toEqual({ starred: ["Charlie", "Echo", "Planner"], recent: [] });
    expect(await api.getAgentSidebar()).toMatchObject({ starred: [{ id: id.Charlie, name: "Charlie", color: "blue" }, { id: id.Echo }, { id: PLANNER_AGENT_ID, color: "purple" }] });

    // Visits make recents, most recent first; starred agents are never among them.
    for (const name of ["Alpha", "Bravo", "delta", "Echo"]) await api.recordAgentChatVisit(id[name]!);
    const visitHeard = heard(subject, { starred: ["Charlie", "Echo", "Planner"], recent: ["delta", "Bravo", "Alpha"] });
    expect(names(await api.getAgentSidebar())).toEqual({ starred: ["Charlie", "Echo", "Planner"], recent: ["delta", "Bravo", "Alpha"] });
    await api.recordAgentChatVisit(id.delta!);
    await visitHeard;
    // A visit again moves it to the top; unstarring brings a visited agent back among the recents, in its visit's place.
    expect(names(await api.recordAgentChatVisit(id.Alpha!))).toEqual({ starred: ["Charlie", "Echo", "Planner"], recent: ["Alpha", "delta", "Bravo"] });
    expect(names(await api.setAgentStarred(id.Echo!, false))).toEqual({ starred: ["Charlie", "Planner"], recent: ["Alpha", "delta", "Echo", "Bravo"] });
    expect(names(await api.setAgentStarred(id.Echo!, false))).toEqual({ starred: ["Charlie", "Planner"], recent: ["Alpha", "delta", "Echo", "Bravo"] });

    // A renamed agent shows its new name; a removed one leaves both lists.
    const renamedHeard = heard(subject, { starred: ["Charlie", "Planner"], recent: ["Alpha", "Dora", "Echo", "Bravo"] });
    await api.updateAgent(id.delta!, { name: "Dora" });
    await renamedHeard;
    await api.removeAgent(id.Charlie!);
    await api.removeAgent(id.Alpha!);
    expect(names(await api.getAgentSidebar())).toEqual({ starred: ["Planner"], recent: ["Dora", "Echo", "Bravo"] });
    await expect(api.setAgentStarred(id.Alpha!, false)).rejects.toMatchObject({ code: "agent-not-found" });
  });

  run(`lists at most ${AGENT_SIDEBAR_RECENTS} recents: the one visited ${AGENT_SIDEBAR_RECENTS + 1} visits ago is out`, async ({ api }) => {
    await api.updateExperimentalSettings({ enableAgentChat: true });
    const id = await agentsNamed(api, "A1", "A2", "A3", "A4", "A5");
    for (const name of ["A1", "A2", "A3", "A4"]) await api.recordAgentChatVisit(id[name]!);
    expect(names(await api.getAgentSidebar()).recent).toEqual(["A4", "A3", "A2", "A1"]);
    expect(names(await api.recordAgentChatVisit(id.A5!)).recent).toEqual(["A5", "A4", "A3", "A2"]);
  });

  run(`keeps at most ${MAX_AGENT_STARS} stars`, async ({ api }) => {
    await api.updateExperimentalSettings({ enableAgentChat: true });
    const made = [];
    for (let i = 0; i < MAX_AGENT_STARS; i++) made.push(await api.createAgent({ name: `Agent ${String(i).padStart(2, "0")}` }));
    for (const agent of made.slice(0, -1)) await api.setAgentStarred(agent.id, true);
    // At the edge, taken; one more refused, and nothing changed.
    expect((await api.setAgentStarred(made.at(-1)!.id, true)).starred).toHaveLength(MAX_AGENT_STARS);
    await expect(api.setAgentStarred(PLANNER_AGENT_ID, true)).rejects.toMatchObject({ code: "too-large", message: expect.stringContaining(`at most ${MAX_AGENT_STARS}`) });
    expect((await api.getAgentSidebar()).starred.map((a) => a.id)).not.toContain(PLANNER_AGENT_ID);
    // A removed agent's star no longer counts.
    await api.removeAgent(made[0]!.id);
    expect((await api.setAgentStarred(PLANNER_AGENT_ID, true)).starred).toHaveLength(MAX_AGENT_STARS);
  });
}
