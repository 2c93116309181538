/**
 * The conversation tools over MCP against a real app core (issue #25): an agent reads a plan's conversation and posts
 * as the person of this app, retries without a second entry, and gets the MCP layer's typed errors for bad input.
 */
import { afterEach, describe, expect, it } from "vitest";
import { MAX_CONVERSATION_PAGE_ENTRIES, MAX_MESSAGE_BYTES } from "../../shared/limits.js";
import { createAppCore } from "../core/app-core.js";
import type { AppCore } from "../core/types.js";
import { tempDir } from "../sync/test-helpers.js";
import { connectCoreAgent } from "./mcp-test-support.js";
import { waitFor } from "../../shared/wait-for.js";
import { startFakeOpenAI } from "../../test-support/fake-openai/server.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function agentOn(options: Partial<Parameters<typeof createAppCore>[0]> = {}): Promise<{ core: AppCore; call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: any }>; tools(): Promise<string[]> }> {
  const dir = tempDir("chopin-mcp-conversation-");
  cleanups.push(() => dir.remove());
  const core = await createAppCore({ dataDir: dir.path, mcpPort: 0, ...options });
  cleanups.push(() => core.close());
  await core.api.updateSettings({ displayName: "Ada" });
  const agent = await connectCoreAgent(core, dir.path);
  cleanups.push(() => agent.close());
  return { core, call: agent.call, tools: agent.tools };
}

describe("the conversation tools over MCP", () => {
  it("are listed, read a conversation page and post as the person of this app, once per idempotencyKey", async () => {
    const agent = await agentOn();
    expect(await agent.tools()).toEqual(expect.arrayContaining(["read_conversation", "post_message"]));
    const plan = await agent.core.api.createDocument({ title: "Plan" });
    await agent.core.api.postMessage(plan.id, { text: "From the window", to: "room", clientRequestId: "w-1" });

    const posted = await agent.call("post_message", { id: plan.id, text: "From the agent, for the **Planner**", to: "planner", idempotencyKey: "k-1" });
    expect(posted).toMatchObject({ isError: false, body: { created: true, entry: { to: "planner", author: { kind: "person", name: "Ada" } } } });
    expect(await agent.call("post_message", { id: plan.id, text: "From the agent, for the **Planner**", to: "planner", idempotencyKey: "k-1" })).toMatchObject({
      body: { created: false, entry: { id: posted.body.entry.id } },
    });

    const read = await agent.call("read_conversation", { id: plan.id });
    expect(read.body).toMatchObject({ documentId: plan.id, hasMore: false, total: 2 });
    expect(read.body.entries.map((e: { text: string }) => e.text)).toEqual(["From the window", "From the agent, for the **Planner**"]);
    expect(read.body.entries[1].at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await agent.core.api.readConversation(plan.id)).entries.at(-1)).toMatchObject({ text: "From the agent, for the **Planner**", mine: true });
    expect(await agent.call("read_conversation", { id: plan.id, limit: 1 })).toMatchObject({ body: { hasMore: true, entries: [{ id: posted.body.entry.id }] } });
  });

  it("read_conversation says who runs the Planner, and reset_planner_ownership answers the state after it", async () => {
    const agent = await agentOn();
    expect(await agent.tools()).toContain("reset_planner_ownership");
    const plan = await agent.core.api.createDocument({ title: "Plan" });
    await agent.call("post_message", { id: plan.id, text: "@Planner begin", to: "planner", idempotencyKey: "k-1" });
    // Nobody is signed in to GitHub here: the message waits, nobody runs the Planner, and the refusal says why.
    await waitFor(async () => (await agent.call("read_conversation", { id: plan.id })).body.planner.refusal !== undefined, "the refusal is known");
    expect((await agent.call("read_conversation", { id: plan.id })).body.planner).toMatchObject({
      owner: null,
      ownershipGeneration: 0,
      sessionGeneration: 0,
      state: "unowned",
      ownedHere: false,
      keeper: "this-device",
      refusal: { code: "unauthorized", message: expect.stringMatching(/Sign in to GitHub/) },
    });
    expect(await agent.call("reset_planner_ownership", { id: plan.id })).toMatchObject({ isError: false, body: { owner: null, state: "unowned", ownershipGeneration: 0 } });
    expect(await agent.call("reset_planner_ownership", { id: "not-an-id" })).toMatchObject({ isError: true, body: { error: { code: "invalid-input" } } });
    expect(await agent.call("reset_planner_ownership", { id: plan.id, extra: true })).toMatchObject({ isError: true, body: { error: { code: "invalid-input" } } });
  });

  it("refuse bad input with the MCP layer's typed errors, and keep nothing", async () => {
    const agent = await agentOn();
    const plan = await agent.core.api.createDocument({ title: "Plan" });
    const refused = async (name: string, args: Record<string, unknown>, code: string) => expect(await agent.call(name, args)).toMatchObject({ isError: true, body: { error: { code } } });
    await refused("post_message", { id: plan.id, text: "", to: "room", idempotencyKey: "a" }, "invalid-input");
    await refused("post_message", { id: plan.id, text: "x".repeat(MAX_MESSAGE_BYTES + 1), to: "room", idempotencyKey: "b" }, "invalid-input");
    await refused("post_message", { id: plan.id, text: "hi", to: "all", idempotencyKey: "c" }, "invalid-input");
    await refused("post_message", { id: plan.id, text: "hi", to: "room" }, "invalid-input");
    await refused("post_message", { id: plan.id, text: "hi", to: "room", idempotencyKey: "d", extra: 1 }, "invalid-input");
    await refused("post_message", { id: "not-an-id", text: "hi", to: "room", idempotencyKey: "e" }, "invalid-input");
    await refused("read_conversation", { id: plan.id, limit: MAX_CONVERSATION_PAGE_ENTRIES + 1 }, "invalid-input");
    await refused("read_conversation", { id: plan.id, before: "zz" }, "invalid-input");
    const other = await agent.core.api.createDocument({ title: "Other" });
    await agent.core.api.archiveDocument(other.id);
    await refused("post_message", { id: other.id, text: "late", to: "room", idempotencyKey: "f" }, "document-archived");
    expect((await agent.core.api.readConversation(plan.id)).total).toBe(0);
  });

  it("invoke_planner posts the instruction to the Planner once per key, or refuses in its own words with nothing posted", async () => {
    const provider = { type: "openai" as const, baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKey: "k" };
    // A provider configured (so this app may run the Planner); no turn runs here, the model is never reached.
    const agent = await agentOn({ planner: { provider, turns: false } });
    expect(await agent.tools()).toContain("invoke_planner");
    const plan = await agent.core.api.createDocument({ title: "Plan" });
    const first = await agent.call("invoke_planner", { id: plan.id, instruction: "Draft the **milestones**", idempotencyKey: "i-1" });
    expect(first).toMatchObject({ isError: false, body: { created: true, entryId: expect.stringMatching(/^[0-9a-f]{32}$/) } });
    expect(await agent.call("invoke_planner", { id: plan.id, instruction: "Draft the **milestones**", idempotencyKey: "i-1" })).toMatchObject({ body: { created: false, entryId: first.body.entryId } });
    expect((await agent.core.api.readConversation(plan.id)).entries).toMatchObject([{ id: first.body.entryId, to: "planner", text: "Draft the **milestones**" }]);
    await agent.core.api.archiveDocument(plan.id);
    expect(await agent.call("invoke_planner", { id: plan.id, instruction: "late", idempotencyKey: "i-2" })).toMatchObject({ isError: true, body: { error: { code: "document-archived" } } });
    expect(await agent.call("invoke_planner", { id: plan.id, instruction: "", idempotencyKey: "i-3" })).toMatchObject({ isError: true, body: { error: { code: "invalid-input" } } });
  });

  it("invoke_planner refuses with planner-off, or planner-owner-unavailable when nobody may run it here", async () => {
    const off = await agentOn({ planner: { off: true } });
    const plan = await off.core.api.createDocument({ title: "Plan" });
    expect(await off.call("invoke_planner", { id: plan.id, instruction: "hi", idempotencyKey: "o-1" })).toMatchObject({ isError: true, body: { error: { code: "planner-off" } } });
    const nobody = await agentOn();
    const other = await nobody.core.api.createDocument({ title: "Plan" });
    expect(await nobody.call("invoke_planner", { id: other.id, instruction: "hi", idempotencyKey: "n-1" })).toMatchObject({
      isError: true,
      body: { error: { code: "planner-owner-unavailable", message: expect.stringMatching(/Sign in to GitHub.*Nothing was posted/) } },
    });
    expect((await off.core.api.readConversation(plan.id)).total).toBe(0);
    expect((await nobody.core.api.readConversation(other.id)).total).toBe(0);
  });

  it("read_conversation lets an agent follow turns: the answer with its tools, a session boundary, a running turn, then interrupted", { timeout: 120_000 }, async () => {
    const model = await startFakeOpenAI();
    cleanups.push(() => model.close());
    const agent = await agentOn({ planner: { provider: { type: "openai", baseUrl: model.url, model: "fake-gpt", apiKey: model.apiKey } } });
    const plan = await agent.core.api.createDocument({ title: "Follow", markdown: "# Follow\n" });
    const entries = async () => (await agent.call("read_conversation", { id: plan.id })).body.entries as any[];
    model.script({ toolCalls: [{ name: "read_plan", arguments: {} }] }, { text: "Read it." });
    const first = (await agent.call("invoke_planner", { id: plan.id, instruction: "Read the plan", idempotencyKey: "f-1" })).body.entryId as string;
    await waitFor(async () => (await entries()).some((e) => e.turn?.id === first && e.turn.state === "answered"), "the first answer", 60_000);
    const answered = (await entries()).filter((e) => e.turn?.id === first);
    expect(answered.map((e) => e.turn.state)).toEqual(["started", "answered"]);
    expect(answered[1]).toMatchObject({ author: { kind: "planner" }, text: "Read it.", tools: [{ name: "read_plan", status: "done" }], sessionGeneration: 0, turn: { ownershipGeneration: 1 } });

    await agent.call("invoke_planner", { id: plan.id, instruction: "/new", idempotencyKey: "f-2" });
    await waitFor(async () => (await entries()).some((e) => e.sessionBoundary), "the boundary", 60_000);
    expect((await entries()).find((e) => e.sessionBoundary)).toMatchObject({ sessionGeneration: 1, turn: { state: "answered" } });

    model.script({ hang: true });
    const long = (await agent.call("invoke_planner", { id: plan.id, instruction: "A long job", idempotencyKey: "f-3" })).body.entryId as string;
    await waitFor(async () => (await entries()).some((e) => e.turn?.id === long && e.turn.state === "running"), "the turn shown running", 60_000);
    await agent.call("reset_planner_ownership", { id: plan.id });
    await waitFor(async () => (await entries()).some((e) => e.turn?.id === long && e.turn.state === "interrupted"), "the turn shown interrupted", 30_000);
  });
});
