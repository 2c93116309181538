/**
 * Test support (imported only by the contract suite, shared/api-contract.ts): what the experimental switch and the agent
 * profiles of issue #27 must do, run against the real core and the window's test double alike. Both start local-only
 * with agent chat off; the team's side (a relay, teammates' edits, unreadable profiles) is the core's own tests'
 * (main/agents/, main/core/agent-profiles-relay.test.ts).
 */
import { expect } from "vitest";
import type { ChopinEvents, EventName } from "./api.js";
import type { ContractCase, ContractSubject } from "./api-contract.js";
import { MAX_AGENT_INSTRUCTIONS_BYTES, MAX_AGENT_MODEL_CHARS, MAX_AGENT_NAME_CHARS, MAX_AGENT_PROFILES } from "./limits.js";
import { AGENT_TOOL_NAMES, DEFAULT_AGENT_COLOR, DEFAULT_AGENT_TOOLS, PLANNER_AGENT_ID } from "./schema/agent-profiles.js";

const invalid = { code: "invalid-input" };
const disabled = { code: "agent-chat-disabled", message: expect.stringMatching(/Settings → Experimental/) };
const unknownAgent = "f".repeat(32);

/** The next payload of `event` that `wanted` accepts. */
function next<E extends EventName>(subject: ContractSubject, event: E, wanted: (payload: ChopinEvents[E]) => boolean = () => true): Promise<ChopinEvents[E]> {
  return new Promise((resolve) => {
    const stop = subject.on(event, (payload) => {
      if (!wanted(payload)) return;
      stop();
      resolve(payload);
    });
  });
}

export function agentContractCases(run: ContractCase): void {
  run("agent chat is off at first: every Agents call is refused in words; turned on it is said, and off again keeps the profiles", async (subject) => {
    const { api } = subject;
    expect(await api.getExperimentalSettings()).toEqual({ enableAgentChat: false, agentChatByCommandLine: false, agentChatOn: false });
    await expect(api.listAgents()).rejects.toMatchObject(disabled);
    await expect(api.createAgent({ name: "Scout" })).rejects.toMatchObject(disabled);
    await expect(api.updateAgent(PLANNER_AGENT_ID, { color: "red" })).rejects.toMatchObject(disabled);
    await expect(api.removeAgent(unknownAgent)).rejects.toMatchObject(disabled);
    await expect(api.updateExperimentalSettings({ enableAgentChat: "yes" as never })).rejects.toMatchObject(invalid);

    const heard = next(subject, "experimental-settings-changed");
    const listed = next(subject, "agents-changed");
    expect(await api.updateExperimentalSettings({ enableAgentChat: true })).toEqual({ enableAgentChat: true, agentChatByCommandLine: false, agentChatOn: true });
    expect(await heard).toMatchObject({ agentChatOn: true });
    expect(await listed).toMatchObject({ scope: "device", teamPending: false, agents: [{ id: PLANNER_AGENT_ID, builtIn: true }] });

    const scout = await api.createAgent({ name: "Scout" });
    expect(await api.updateExperimentalSettings({ enableAgentChat: false })).toMatchObject({ agentChatOn: false });
    await expect(api.listAgents()).rejects.toMatchObject(disabled);
    await api.updateExperimentalSettings({ enableAgentChat: true });
    expect((await api.listAgents()).agents.map((a) => a.id)).toEqual([PLANNER_AGENT_ID, scout.id]);
  });

  run("agent profiles: the Planner first and built in, a new profile's defaults, only named fields change, typed refusals", async (subject) => {
    const { api } = subject;
    await api.updateExperimentalSettings({ enableAgentChat: true });
    expect(await api.listAgents()).toEqual({
      scope: "device",
      teamPending: false,
      unreadable: 0,
      agents: [{ id: PLANNER_AGENT_ID, name: "Planner", color: "purple", instructions: "", model: { kind: "team-default" }, tools: [...AGENT_TOOL_NAMES], builtIn: true, createdAt: 0, updatedAt: 0 }],
    });

    const made = next(subject, "agents-changed", (list) => list.agents.some((a) => a.name === "Scout"));
    const scout = await api.createAgent({ name: "  Scout  " });
    expect(scout).toMatchObject({ name: "Scout", color: DEFAULT_AGENT_COLOR, instructions: "", model: { kind: "team-default" }, tools: [...DEFAULT_AGENT_TOOLS], builtIn: false });
    expect(scout.id).toMatch(/^[0-9a-f]{32}$/);
    await made;
    const analyst = await api.createAgent({
      name: "analyst",
      color: "teal",
      instructions: "# Role\n\nRead the **plan**.",
      model: { kind: "provider", provider: "anthropic", model: " claude-x " },
      tools: ["edit_plan", "read_plan", "read_plan"],
    });
    expect(analyst).toMatchObject({ color: "teal", model: { kind: "provider", provider: "anthropic", model: "claude-x" }, tools: ["read_plan", "edit_plan"] });
    expect((await api.listAgents()).agents.map((a) => a.name)).toEqual(["Planner", "analyst", "Scout"]);

    const updated = await api.updateAgent(scout.id, { instructions: "Look around." });
    expect(updated).toMatchObject({ id: scout.id, name: "Scout", instructions: "Look around.", color: DEFAULT_AGENT_COLOR, tools: [...DEFAULT_AGENT_TOOLS] });
    expect(await api.updateAgent(analyst.id, { model: { kind: "team-default" }, tools: [] })).toMatchObject({ model: { kind: "team-default" }, tools: [] });

    // The Planner: its colour, instructions, model and tools change; its name and its place do not.
    expect(await api.updateAgent(PLANNER_AGENT_ID, { color: "green", instructions: "Be brief.", tools: ["read_plan"] })).toMatchObject({ name: "Planner", color: "green", instructions: "Be brief.", tools: ["read_plan"], builtIn: true });
    expect(await api.updateAgent(PLANNER_AGENT_ID, { name: "Planner" })).toMatchObject({ name: "Planner" });
    await expect(api.updateAgent(PLANNER_AGENT_ID, { name: "Boss" })).rejects.toMatchObject({ code: "agent-built-in", message: expect.stringMatching(/^Name: /) });
    await expect(api.removeAgent(PLANNER_AGENT_ID)).rejects.toMatchObject({ code: "agent-built-in" });

    await expect(api.createAgent({ name: "scout" })).rejects.toMatchObject({ ...invalid, message: expect.stringMatching(/^Name: another agent is called “Scout”/) });
    await expect(api.createAgent({ name: "PLANNER" })).rejects.toMatchObject({ ...invalid, message: expect.stringMatching(/^Name: /) });
    await expect(api.updateAgent(analyst.id, { name: "Scout" })).rejects.toMatchObject(invalid);
    expect(await api.updateAgent(scout.id, { name: "SCOUT" })).toMatchObject({ name: "SCOUT" });
    await expect(api.updateAgent(unknownAgent, { color: "red" })).rejects.toMatchObject({ code: "agent-not-found" });
    await expect(api.removeAgent(unknownAgent)).rejects.toMatchObject({ code: "agent-not-found" });

    await api.removeAgent(scout.id);
    expect((await api.listAgents()).agents.map((a) => a.name)).toEqual(["Planner", "analyst"]);
    await expect(api.updateAgent(scout.id, { color: "red" })).rejects.toMatchObject({ code: "agent-not-found" });
  });

  run("refuses agent profile input that does not fit with a sentence naming the field, each bound at its edge", async ({ api }) => {
    await api.updateExperimentalSettings({ enableAgentChat: true });
    const refused = async (input: unknown, field: RegExp) => expect(api.createAgent(input as never)).rejects.toMatchObject({ ...invalid, message: expect.stringMatching(field) });
    await refused({ name: "   " }, /^Name: /);
    await refused({ name: "a\nb" }, /^Name: /);
    await refused({ name: "x".repeat(MAX_AGENT_NAME_CHARS + 1) }, /^Name: at most/);
    await refused({ name: 7 }, /^Name: /);
    await refused({ name: "Colours", color: "chartreuse" }, /^Colour: /);
    await refused({ name: "Words", instructions: "é".repeat(MAX_AGENT_INSTRUCTIONS_BYTES / 2) + "x" }, /^Instructions: at most/);
    await refused({ name: "Bell", instructions: "ring \u0007" }, /^Instructions: /);
    await refused({ name: "Model", model: { kind: "provider", provider: "openai", model: "m".repeat(MAX_AGENT_MODEL_CHARS + 1) } }, /^Model: /);
    await refused({ name: "Model", model: { kind: "provider", provider: "openai", model: "  " } }, /^Model: /);
    await refused({ name: "Model", model: { kind: "provider", provider: "gemini", model: "g" } }, /^Model: /);
    await refused({ name: "Model", model: { kind: "someone" } }, /^Model: /);
    await refused({ name: "Tools", tools: ["run_shell"] }, /^Tools: /);
    await refused("Scout", /^A new agent's details must be sent as an object/);
    await expect(api.updateAgent("Not an id!", {})).rejects.toMatchObject(invalid);
    expect((await api.listAgents()).agents).toHaveLength(1);

    // At each edge, accepted.
    const edge = await api.createAgent({
      name: "x".repeat(MAX_AGENT_NAME_CHARS),
      instructions: "é".repeat(MAX_AGENT_INSTRUCTIONS_BYTES / 2),
      model: { kind: "provider", provider: "openai", model: "m".repeat(MAX_AGENT_MODEL_CHARS) },
    });
    expect(edge.name).toHaveLength(MAX_AGENT_NAME_CHARS);
    expect(edge.instructions).toHaveLength(MAX_AGENT_INSTRUCTIONS_BYTES / 2);
  });

  run(`keeps at most ${MAX_AGENT_PROFILES} agents besides the Planner`, async ({ api }) => {
    await api.updateExperimentalSettings({ enableAgentChat: true });
    const made = [];
    for (let i = 0; i < MAX_AGENT_PROFILES; i++) made.push(await api.createAgent({ name: `Agent ${i}` }));
    await expect(api.createAgent({ name: "One more" })).rejects.toMatchObject({ code: "too-large", message: expect.stringMatching(new RegExp(`at most ${MAX_AGENT_PROFILES} agents`)) });
    await api.removeAgent(made[0]!.id);
    expect(await api.createAgent({ name: "One more" })).toMatchObject({ name: "One more" });
    expect((await api.listAgents()).agents).toHaveLength(MAX_AGENT_PROFILES + 1);
  });
}
