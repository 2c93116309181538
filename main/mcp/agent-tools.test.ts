/**
 * list_agents over MCP against a real app core (issue #27): listed beside the other tools; refused with
 * 'agent-chat-disabled' while agent chat is off on this app, opening nothing; once on, the profiles the Agents page
 * shows (the Planner first, then by name); unknown input refused naming the field.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AGENT_TOOL_NAMES } from "../../shared/schema/agent-profiles.js";
import { agentProfilesIdOf } from "../agents/agent-profiles-identity.js";
import { createAppCore } from "../core/app-core.js";
import type { AppCore } from "../core/types.js";
import { tempDir } from "../sync/test-helpers.js";
import { connectCoreAgent } from "./mcp-test-support.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function agentOn(enableAgentChat = false) {
  const dir = tempDir("chopin-mcp-agents-");
  cleanups.push(() => dir.remove());
  const core: AppCore = await createAppCore({ dataDir: dir.path, mcpPort: 0, enableAgentChat });
  cleanups.push(() => core.close());
  const agent = await connectCoreAgent(core, dir.path);
  cleanups.push(() => agent.close());
  return { core, call: agent.call, tools: agent.tools };
}

describe("list_agents over MCP", () => {
  it("is listed, and refused with agent-chat-disabled while agent chat is off, opening nothing", async () => {
    const agent = await agentOn();
    expect(await agent.tools()).toContain("list_agents");
    expect(await agent.call("list_agents", {})).toEqual({
      isError: true,
      body: { error: { code: "agent-chat-disabled", message: expect.stringMatching(/^Agent chat is turned off on this app: turn it on in Settings → Experimental/) } },
    });
    const deviceDocument = agentProfilesIdOf({ kind: "device", deviceId: (await agent.core.api.getIdentity()).peerId });
    expect(agent.core.repo.handles[deviceDocument]).toBeUndefined();
  });

  it("lists what the Agents page shows once agent chat is on, and refuses again once it is off", async () => {
    const agent = await agentOn();
    await agent.core.api.updateExperimentalSettings({ enableAgentChat: true });
    await agent.core.api.createAgent({ name: "Scout", color: "teal", instructions: "Find **gaps**.", model: { kind: "provider", provider: "openai", model: "gpt-x" }, tools: ["read_plan"] });
    await agent.core.api.createAgent({ name: "Analyst" });
    const listed = await agent.call("list_agents", {});
    expect(listed.isError).toBe(false);
    expect(listed.body).toMatchObject({ scope: "device", teamPending: false, unreadable: 0 });
    expect(listed.body.agents.map((a: { name: string }) => a.name)).toEqual(["Planner", "Analyst", "Scout"]);
    expect(listed.body.agents[0]).toEqual({ id: "planner", name: "Planner", color: "purple", instructions: "", model: { kind: "team-default" }, tools: [...AGENT_TOOL_NAMES], builtIn: true });
    expect(listed.body.agents[2]).toMatchObject({ color: "teal", instructions: "Find **gaps**.", model: { kind: "provider", provider: "openai", model: "gpt-x" }, tools: ["read_plan"], builtIn: false, createdAt: expect.stringMatching(/^\d{4}-/) });

    await agent.core.api.updateExperimentalSettings({ enableAgentChat: false });
    expect(await agent.call("list_agents", {})).toMatchObject({ isError: true, body: { error: { code: "agent-chat-disabled" } } });
  });

  it("is on for a run started with the flag, and refuses input it does not take, naming the field", async () => {
    const agent = await agentOn(true);
    expect((await agent.call("list_agents", {})).body.agents).toHaveLength(1);
    expect(await agent.call("list_agents", { scope: "team" })).toMatchObject({ isError: true, body: { error: { code: "invalid-input", message: expect.stringContaining("scope") } } });
  });
});
