/**
 * read_agent_chat, send_agent_chat, stop_agent_chat, list_agent_chats, discard_agent_chat_send and hand_off_agent_chat_plan
 * over MCP against a real app core (issue #27): listed beside
 * the other tools; refused with 'agent-chat-disabled' while agent chat is off (nothing made) and 'agent-not-found' for
 * an agent the profiles do not hold; a chat never used reads as a null conversation and makes nothing; a send names
 * its agent by id or name, begins the chat once and is idempotent by its key; the chat's plan is not in
 * list_documents; a handoff makes one plan and one card per key; a discard takes a send refused for good out of the
 * outbox, also for an agent since removed.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAppCore } from "../core/app-core.js";
import type { AppCore } from "../core/types.js";
import { tempDir } from "../sync/test-helpers.js";
import { connectCoreAgent } from "./mcp-test-support.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function connected() {
  const dir = tempDir("chopin-mcp-agent-chat-");
  cleanups.push(() => dir.remove());
  const core: AppCore = await createAppCore({ dataDir: dir.path, mcpPort: 0 });
  cleanups.push(() => core.close());
  const agent = await connectCoreAgent(core, dir.path);
  cleanups.push(() => agent.close());
  return { core, call: agent.call, tools: agent.tools };
}

describe("the agent chat tools over MCP", () => {
  it("are listed, and refused with agent-chat-disabled while agent chat is off, making nothing", async () => {
    const agent = await connected();
    expect(await agent.tools()).toEqual(
      expect.arrayContaining(["read_agent_chat", "send_agent_chat", "stop_agent_chat", "list_agent_chats", "discard_agent_chat_send", "hand_off_agent_chat_plan"]),
    );
    for (const [name, args] of [
      ["read_agent_chat", { agent: "planner" }],
      ["send_agent_chat", { agent: "planner", text: "hi", idempotencyKey: "k" }],
      ["stop_agent_chat", { agent: "planner" }],
      ["list_agent_chats", {}],
      ["discard_agent_chat_send", { agent: "planner", idempotencyKey: "k" }],
      ["hand_off_agent_chat_plan", { agent: "planner", title: "T", brief: "b", idempotencyKey: "h" }],
    ] as const) {
      expect(await agent.call(name, args)).toMatchObject({ isError: true, body: { error: { code: "agent-chat-disabled" } } });
    }
    expect(await agent.core.api.listDocuments()).toEqual([]);
  });

  it("read a chat never used as null, begin it on the first send (by id or name), retry as one entry, and keep its plan out of list_documents", async () => {
    const agent = await connected();
    await agent.core.api.updateExperimentalSettings({ enableAgentChat: true });
    const scout = await agent.core.api.createAgent({ name: "Scout" });
    expect(await agent.call("read_agent_chat", { agent: "scout" })).toEqual({ isError: false, body: { conversation: null } });
    expect(await agent.call("read_agent_chat", { agent: "Nobody" })).toMatchObject({ isError: true, body: { error: { code: "agent-not-found" } } });
    expect(await agent.call("stop_agent_chat", { agent: scout.id })).toMatchObject({ isError: true, body: { error: { code: "not-found" } } });
    expect((await agent.call("list_documents", {})).body.documents).toEqual([]);

    const sent = await agent.call("send_agent_chat", { agent: "SCOUT", text: "Draft the launch", idempotencyKey: "mcp-1" });
    expect(sent).toMatchObject({ isError: false, body: { queued: false, created: true, entry: { to: "planner", text: "Draft the launch" } } });
    const again = await agent.call("send_agent_chat", { agent: scout.id, text: "Draft the launch", idempotencyKey: "mcp-1" });
    expect(again.body).toMatchObject({ planId: sent.body.planId, created: false, entry: { id: sent.body.entry.id } });

    const read = await agent.call("read_agent_chat", { agent: scout.id, limit: 1 });
    expect(read.body).toMatchObject({ planId: sent.body.planId, state: "active", conversation: { total: 1, hasMore: false }, planner: { owner: null }, outbox: [] });
    // The key is one message: another text under it is refused, nothing sent.
    expect(await agent.call("send_agent_chat", { agent: scout.id, text: "Draft the launch again", idempotencyKey: "mcp-1" })).toMatchObject({ isError: true, body: { error: { code: "invalid-input" } } });
    expect((await agent.call("list_documents", { includeArchived: true })).body.documents).toEqual([]);
    expect(await agent.call("send_agent_chat", { agent: scout.id, text: "x", idempotencyKey: "k", extra: 1 })).toMatchObject({ isError: true, body: { error: { code: "invalid-input" } } });

    // The table of chats lists the begun chat, as this person's; nothing else was begun.
    expect(await agent.call("list_agent_chats", {})).toEqual({ isError: false, body: { chats: [{ agentId: scout.id, planId: sent.body.planId, person: { key: expect.stringMatching(/^device:/) }, mine: true }] } });
    expect(await agent.call("list_agent_chats", { extra: 1 })).toMatchObject({ isError: true, body: { error: { code: "invalid-input" } } });
  });

  it("hand off the chat's plan once per key, and discard a send refused for good, also once its agent is removed", async () => {
    const agent = await connected();
    await agent.core.api.updateExperimentalSettings({ enableAgentChat: true });
    const scout = await agent.core.api.createAgent({ name: "Scout" });
    const handoff = { agent: "Scout", title: "Launch plan", brief: "For the launch team.", idempotencyKey: "h-1" };
    // Never begun: nothing to hand off, nothing made.
    expect(await agent.call("hand_off_agent_chat_plan", handoff)).toMatchObject({ isError: true, body: { error: { code: "not-found" } } });
    const sent = await agent.call("send_agent_chat", { agent: scout.id, text: "Draft the launch", idempotencyKey: "m-1" });
    const chatPlan = (await agent.call("read_document", { id: sent.body.planId })).body;
    expect(await agent.call("update_document", { id: sent.body.planId, revision: chatPlan.revision, markdown: "- [ ] book the hall\n", idempotencyKey: "u-1" })).toMatchObject({ isError: false });

    const made = await agent.call("hand_off_agent_chat_plan", handoff);
    expect(made).toMatchObject({ isError: false, body: { documentId: expect.any(String), entry: { handoff: { documentId: made.body.documentId, title: "Launch plan" } } } });
    expect((await agent.call("hand_off_agent_chat_plan", handoff)).body).toEqual(made.body);
    expect((await agent.call("read_document", { id: made.body.documentId })).body).toMatchObject({ title: "Launch plan", markdown: expect.stringMatching(/For the launch team\.[\s\S]*book the hall/) });
    // The card shows in the chat as read over MCP, naming the plan.
    expect((await agent.call("read_agent_chat", { agent: scout.id })).body.conversation.entries.at(-1)).toMatchObject({ handoff: { documentId: made.body.documentId, title: "Launch plan" } });
    expect((await agent.call("list_documents", {})).body.documents.map((d: { id: string }) => d.id)).toEqual([made.body.documentId]);
    expect(await agent.call("hand_off_agent_chat_plan", { ...handoff, idempotencyKey: "h-2", title: "" })).toMatchObject({ isError: true, body: { error: { code: "invalid-input" } } });

    // A send refused for good (the chat's plan archived) waits as failed until discarded; a delivered one stays.
    await agent.core.api.archiveDocument(sent.body.planId);
    expect(await agent.call("send_agent_chat", { agent: scout.id, text: "refused", idempotencyKey: "m-2" })).toMatchObject({ isError: true, body: { error: { code: "document-archived" } } });
    expect(await agent.call("discard_agent_chat_send", { agent: scout.id, idempotencyKey: "m-1" })).toMatchObject({ isError: true, body: { error: { code: "revision-conflict" } } });
    await agent.core.api.removeAgent(scout.id);
    expect(await agent.call("discard_agent_chat_send", { agent: scout.id, idempotencyKey: "m-2" })).toMatchObject({
      isError: false,
      body: { discarded: { clientRequestId: "m-2", text: "refused", status: "failed" } },
    });
    expect(await agent.call("discard_agent_chat_send", { agent: scout.id, idempotencyKey: "m-2" })).toMatchObject({ isError: true, body: { error: { code: "not-found" } } });
  });
});
