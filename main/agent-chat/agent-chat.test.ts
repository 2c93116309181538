/**
 * A person's chat with an agent in a real app core (issue #27), the real Copilot runtime answering through our fake
 * OpenAI server as the configured provider: a chat never used reads as null and makes nothing (no handle, nothing in
 * storage, nothing listed); the first send begins the chat's plan and the agent answers with its profile applied (its
 * instructions delimited after the Planner's base directive, its model, only its tools); a retry is one entry; the
 * chat is 'active' while a turn runs and Stop ends it, 'waiting' after; a turn the provider failed is answered by a
 * failed answer naming the agent, and its retry by a new turn; the plan never shows among documents.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import { agentChatIdOf } from "../../shared/node/agent-chat-identity.js";
import { waitFor } from "../../shared/wait-for.js";
import { messageText } from "../../test-support/fake-openai/protocol.js";
import { startFakeOpenAI, type FakeOpenAI } from "../../test-support/fake-openai/server.js";
import { createAppCore } from "../core/app-core.js";
import type { AppCore } from "../core/types.js";
import { AGENT_INSTRUCTIONS_BEGIN, AGENT_INSTRUCTIONS_END } from "../planner/agent-directive.js";
import { PLANNER_SYSTEM_MESSAGE } from "../planner/turn-runner.js";
import { tempDir } from "../sync/test-helpers.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** `byCommandLine`: agent chat on for the run (else off until the switch is turned on). */
async function setup(byCommandLine = true): Promise<{ core: AppCore; model: FakeOpenAI }> {
  const model = await startFakeOpenAI({ models: ["fake-gpt", "scout-model"] });
  cleanups.push(() => model.close());
  const dir = tempDir("chopin-agent-chat-");
  cleanups.push(() => dir.remove());
  const core = await createAppCore({
    dataDir: dir.path,
    mcpPort: 0,
    enableAgentChat: byCommandLine,
    planner: { provider: { type: "openai", baseUrl: model.url, model: "fake-gpt", apiKey: model.apiKey } },
  });
  cleanups.push(() => core.close());
  await core.api.updateSettings({ displayName: "Ada" });
  return { core, model };
}

/** The agent's answers (not the marks of turns begun). */
const answers = async (core: AppCore, planId: DocumentId) => (await core.api.readConversation(planId)).entries.filter((e) => e.author.kind === "planner" && e.turn?.state === "answered");

describe("a person's chat with an agent", () => {
  it("reads as null and makes nothing until the first send, which begins it; the agent answers as its profile says", { timeout: 90_000 }, async () => {
    const { core, model } = await setup();
    const scout = await core.api.createAgent({
      name: "Scout",
      instructions: "Always sign off with SCOUT-OUT.\nAsk before drafting.",
      tools: ["read_reference"],
      model: { kind: "provider", provider: "openai", model: "scout-model" },
    });
    const { peerId } = await core.api.getIdentity();
    const planId = agentChatIdOf({ scope: { kind: "device", deviceId: peerId }, agentId: scout.id, person: `device:${peerId}` });

    expect(await core.api.readAgentChat(scout.id)).toBeNull();
    expect(await core.api.readAgentChat(scout.id, { limit: 5 })).toBeNull();
    expect(core.repo.handles[planId]).toBeUndefined();
    expect(await core.repo.storageSubsystem!.loadDoc(planId)).toBeNull();
    expect(await core.api.listDocuments()).toEqual([]);

    model.script({ text: "What is the launch date? SCOUT-OUT" });
    const sent = await core.api.sendAgentChat(scout.id, { text: "Help me plan the launch", clientRequestId: "first" });
    expect(sent).toMatchObject({ queued: false, planId, created: true, entry: { to: "planner", text: "Help me plan the launch" } });
    await waitFor(async () => (await answers(core, planId)).length === 1, "the agent answered", 60_000);
    expect((await answers(core, planId))[0]!.text).toBe("What is the launch date? SCOUT-OUT");

    // The model was asked with the profile applied: the base directive first and whole, then the delimited
    // instructions; the profile's model (its provider kind is this app's); only read_plan (always) and its own tools.
    const request = model.requests[0]!;
    const system = messageText(request.body.messages.find((m) => m.role === "system"));
    expect(system).toContain(PLANNER_SYSTEM_MESSAGE);
    expect(system.indexOf(PLANNER_SYSTEM_MESSAGE)).toBeLessThan(system.indexOf(AGENT_INSTRUCTIONS_BEGIN));
    expect(system).toContain(`${AGENT_INSTRUCTIONS_BEGIN}\n│ Always sign off with SCOUT-OUT.\n│ Ask before drafting.\n${AGENT_INSTRUCTIONS_END}`);
    expect(request.body.model).toBe("scout-model");
    expect((request.body.tools ?? []).map((t) => t.function.name).sort()).toEqual(["read_plan", "read_reference"]);

    // A retry is the same entry; the chat now reads, waiting, and its plan is listed nowhere.
    const again = await core.api.sendAgentChat(scout.id, { text: "Help me plan the launch", clientRequestId: "first" });
    expect(again).toMatchObject({ queued: false, planId, created: false, entry: { id: sent.entry!.id } });
    const chat = await core.api.readAgentChat(scout.id);
    expect(chat).toMatchObject({ planId, state: "waiting", planner: { state: "running-here", keeper: "this-device" } });
    expect(chat!.page!.entries.filter((e) => e.author.kind === "person").map((e) => e.id)).toEqual([sent.entry!.id]);
    expect(await core.api.listDocuments()).toEqual([]);
    expect(await core.api.listDocuments({ query: "Agent chat" })).toEqual([]);
    expect(await core.api.getDocument(planId)).toMatchObject({ agentChat: { agentId: scout.id, person: `device:${peerId}` } });
    expect(model.requests).toHaveLength(1);
  });

  it("drafts in the chat's own plan with read_plan and edit_plan, which opens like a plan", { timeout: 90_000 }, async () => {
    const { core, model } = await setup();
    const drafter = await core.api.createAgent({ name: "Drafter", tools: ["edit_plan"] });
    const lastToolResult = (request: (typeof model.requests)[number]) => JSON.parse(messageText(request.body.messages.filter((m) => m.role === "tool").at(-1))) as { revision: string };
    model.script(
      { toolCalls: [{ name: "read_plan", arguments: {} }] },
      (request) => ({ toolCalls: [{ name: "edit_plan", arguments: { revision: lastToolResult(request).revision, operations: [{ op: "insert", after: null, markdown: "# Launch\n\n- Pick a date" }] } }] }),
      { text: "I drafted the launch plan." },
    );
    const planId = (await core.api.sendAgentChat(drafter.id, { text: "Draft it", clientRequestId: "d-1" })).planId as DocumentId;
    await waitFor(async () => (await answers(core, planId)).length === 1, "the agent answered", 60_000);
    expect((await answers(core, planId))[0]).toMatchObject({ text: "I drafted the launch plan.", tools: [{ name: "read_plan", status: "done" }, { name: "edit_plan", status: "done" }] });
    expect((await core.planner.documents.getContent(planId)).markdown).toContain("# Launch\n\n- Pick a date");
  });

  it("is active while a turn runs; Stop ends the turn and the chat is waiting again", { timeout: 90_000 }, async () => {
    const { core, model } = await setup();
    const scout = await core.api.createAgent({ name: "Scout" });
    model.script({ hang: true });
    const planId = (await core.api.sendAgentChat(scout.id, { text: "A long job", clientRequestId: "long" })).planId as DocumentId;
    expect((await core.api.readAgentChat(scout.id))!.state).toBe("active");
    await waitFor(() => model.requests.length === 1, "the model asked", 60_000);
    await waitFor(async () => (await core.api.readConversation(planId)).entries.some((e) => e.turn?.state === "started"), "the turn begun", 30_000);
    expect((await core.api.readAgentChat(scout.id))!.state).toBe("active");
    const stop = await core.api.stopAgentChat(scout.id);
    expect(stop).toMatchObject({ abortTurn: expect.any(String), mine: true });
    await waitFor(async () => (await answers(core, planId)).length === 1, "the stopped turn answered", 60_000);
    expect((await answers(core, planId))[0]!.text).toMatch(/Stopped by Ada/);
    expect((await core.api.readAgentChat(scout.id))!.state).toBe("waiting");
  });

  it("answers a turn the provider failed with a failed answer naming the agent; the retry of it is answered", { timeout: 90_000 }, async () => {
    const { core, model } = await setup();
    const scout = await core.api.createAgent({ name: "Scout" });
    model.script({ error: 400, message: "This model is not available to you." });
    const sent = await core.api.sendAgentChat(scout.id, { text: "Plan the launch", clientRequestId: "ask" });
    const planId = sent.planId as DocumentId;
    await waitFor(async () => (await answers(core, planId)).length === 1, "the failure answered", 60_000);
    const [failure] = await answers(core, planId);
    expect(failure).toMatchObject({ failed: true, turn: { id: sent.entry!.id, state: "answered" } });
    expect(failure!.text).toMatch(/^The model provider failed, so Scout could not answer: /);
    expect(failure!.text).not.toContain("the Planner");
    // The failure is an answer: the chat waits for the person, who retries the asked words under the turn's key.
    expect((await core.api.readAgentChat(scout.id))!.state).toBe("waiting");
    model.script({ text: "Which launch?" });
    const retry = await core.api.sendAgentChat(scout.id, { text: "Plan the launch", clientRequestId: `retry:${failure!.turn!.id}` });
    expect(retry).toMatchObject({ created: true, entry: { text: "Plan the launch", to: "planner" } });
    await waitFor(async () => (await answers(core, planId)).length === 2, "the retry answered", 60_000);
    const answer = (await answers(core, planId))[1]!;
    expect(answer).toMatchObject({ text: "Which launch?", turn: { id: retry.entry!.id } });
    expect(answer.failed).toBeUndefined();
    expect(model.requests).toHaveLength(2);
  });

  it("refuses every call while agent chat is off, reading and making nothing", async () => {
    const { core } = await setup(false);
    await core.api.updateExperimentalSettings({ enableAgentChat: true });
    const scout = await core.api.createAgent({ name: "Scout" });
    await core.api.updateExperimentalSettings({ enableAgentChat: false });
    for (const call of [core.api.readAgentChat(scout.id), core.api.sendAgentChat(scout.id, { text: "hi", clientRequestId: "c" }), core.api.stopAgentChat(scout.id)]) {
      await expect(call).rejects.toMatchObject({ code: "agent-chat-disabled" });
    }
    await core.api.updateExperimentalSettings({ enableAgentChat: true });
    expect(await core.api.readAgentChat(scout.id)).toBeNull();
  });
});
