/**
 * Test support (imported only by the contract suite, shared/api-contract.ts): what the agent chat API of issue #27 must
 * do, run against the real core and the window's test double alike. Both start local-only, with nobody able to run an
 * agent (no provider, not signed in), so a message to the agent waits and the chat stays 'active'. Turns, relays and
 * teammates are the core's own tests' (main/agent-chat/).
 */
import { expect } from "vitest";
import type { AgentChatSendDelivered, AgentChatSendResult } from "./api.js";
import type { ContractCase } from "./api-contract.js";
import { MAX_CLIENT_REQUEST_ID_CHARS, MAX_HANDOFF_BRIEF_BYTES, MAX_TITLE_CHARS } from "./limits.js";
import { PLANNER_AGENT_ID } from "./schema/agent-profiles.js";

const disabled = { code: "agent-chat-disabled", message: expect.stringMatching(/Settings → Experimental/) };
const unknownAgent = "f".repeat(32);

/** Local-only with the app running, a send is delivered at once: never left queued. */
function delivered(result: AgentChatSendResult): AgentChatSendDelivered {
  expect(result.queued).toBe(false);
  if (result.queued) throw new Error("queued");
  return result;
}

export function agentChatContractCases(run: ContractCase): void {
  run("agent chat calls are refused in words while agent chat is off, and for an unknown agent once on; bad arguments name the field", async ({ api }) => {
    await expect(api.readAgentChat(PLANNER_AGENT_ID)).rejects.toMatchObject(disabled);
    await expect(api.sendAgentChat(PLANNER_AGENT_ID, { text: "hi", clientRequestId: "c1" })).rejects.toMatchObject(disabled);
    await expect(api.stopAgentChat(PLANNER_AGENT_ID)).rejects.toMatchObject(disabled);
    await api.updateExperimentalSettings({ enableAgentChat: true });
    for (const call of [api.readAgentChat(unknownAgent), api.sendAgentChat(unknownAgent, { text: "hi", clientRequestId: "c1" }), api.stopAgentChat(unknownAgent)]) {
      await expect(call).rejects.toMatchObject({ code: "agent-not-found" });
    }
    await expect(api.readAgentChat("Not an id")).rejects.toMatchObject({ code: "invalid-input" });
    await expect(api.sendAgentChat(PLANNER_AGENT_ID, { text: "", clientRequestId: "c1" })).rejects.toMatchObject({ code: "invalid-input" });
    await expect(api.sendAgentChat(PLANNER_AGENT_ID, { text: "hi", clientRequestId: "x".repeat(MAX_CLIENT_REQUEST_ID_CHARS + 1) })).rejects.toMatchObject({ code: "invalid-input", message: expect.stringContaining("clientRequestId") });
    // A key at the bound is taken.
    expect((await api.sendAgentChat(PLANNER_AGENT_ID, { text: "hi", clientRequestId: "x".repeat(MAX_CLIENT_REQUEST_ID_CHARS) })).created).toBe(true);
  });

  run("a chat never used reads as null and makes nothing; the first send begins it, a retry is the same entry, and its plan is never listed", async ({ api }) => {
    await api.updateExperimentalSettings({ enableAgentChat: true });
    const scout = await api.createAgent({ name: "Scout" });
    const before = await api.listDocuments();
    expect(await api.readAgentChat(scout.id)).toBeNull();
    expect(await api.listDocuments()).toEqual(before);
    await expect(api.stopAgentChat(scout.id)).rejects.toMatchObject({ code: "not-found" });

    const sent = delivered(await api.sendAgentChat(scout.id, { text: "Draft a launch plan", clientRequestId: "first" }));
    expect(sent).toMatchObject({ created: true, entry: { to: "planner", text: "Draft a launch plan", mine: true } });
    const again = delivered(await api.sendAgentChat(scout.id, { text: "Draft a launch plan", clientRequestId: "first" }));
    expect(again).toMatchObject({ planId: sent.planId, created: false, entry: { id: sent.entry.id } });

    const chat = await api.readAgentChat(scout.id);
    expect(chat).toMatchObject({ planId: sent.planId, state: "active", page: { documentId: sent.planId, total: 1 }, planner: { documentId: sent.planId }, outbox: [] });
    expect(chat!.page!.entries.map((e) => e.id)).toEqual([sent.entry.id]);
    expect(await api.getDocument(sent.planId)).toMatchObject({ id: sent.planId, agentChat: { agentId: scout.id } });
    expect((await api.listDocuments()).map((d) => d.id)).not.toContain(sent.planId);
    // Another agent's chat is another plan.
    expect(delivered(await api.sendAgentChat(PLANNER_AGENT_ID, { text: "hello", clientRequestId: "second" })).planId).not.toBe(sent.planId);
  });

  run("a clientRequestId is one message: reused for another text or another agent it is refused, naming the field, and nothing is sent", async ({ api }) => {
    await api.updateExperimentalSettings({ enableAgentChat: true });
    const scout = await api.createAgent({ name: "Scout" });
    const sent = delivered(await api.sendAgentChat(scout.id, { text: "Draft a launch plan", clientRequestId: "k-1" }));
    const reused = { code: "invalid-input", message: expect.stringContaining("clientRequestId"), details: { field: "clientRequestId" } };
    await expect(api.sendAgentChat(scout.id, { text: "Draft a launch plan!", clientRequestId: "k-1" })).rejects.toMatchObject(reused);
    await expect(api.sendAgentChat(PLANNER_AGENT_ID, { text: "Draft a launch plan", clientRequestId: "k-1" })).rejects.toMatchObject(reused);
    expect(await api.readAgentChat(PLANNER_AGENT_ID)).toBeNull();
    expect((await api.readAgentChat(scout.id))!.page!.entries.map((e) => [e.id, e.text])).toEqual([[sent.entry.id, "Draft a launch plan"]]);
    // The retry itself is still the same entry.
    expect(delivered(await api.sendAgentChat(scout.id, { text: "Draft a launch plan", clientRequestId: "k-1" }))).toMatchObject({ created: false, entry: { id: sent.entry.id } });
  });

  run("a discard is refused for a delivered send (it is in the conversation) and an unknown key, in words while agent chat is off; bad arguments name the field", async ({ api }) => {
    await expect(api.discardAgentChatSend(PLANNER_AGENT_ID, "d-1")).rejects.toMatchObject(disabled);
    await api.updateExperimentalSettings({ enableAgentChat: true });
    const scout = await api.createAgent({ name: "Scout" });
    await expect(api.discardAgentChatSend(scout.id, "never-sent")).rejects.toMatchObject({ code: "not-found" });
    const sent = delivered(await api.sendAgentChat(scout.id, { text: "Draft a launch plan", clientRequestId: "d-1" }));
    await expect(api.discardAgentChatSend(scout.id, "d-1")).rejects.toMatchObject({ code: "revision-conflict", message: expect.stringMatching(/in the conversation.*Withdraw it there/), details: { entryId: sent.entry.id } });
    // The key is this agent's send: another chat holds nothing under it. An agent unknown here asks nothing more.
    await expect(api.discardAgentChatSend(PLANNER_AGENT_ID, "d-1")).rejects.toMatchObject({ code: "not-found" });
    await expect(api.discardAgentChatSend(unknownAgent, "d-1")).rejects.toMatchObject({ code: "not-found" });
    for (const args of [["Not an id", "d-1"], [scout.id, ""], [scout.id, "x".repeat(MAX_CLIENT_REQUEST_ID_CHARS + 1)], [scout.id]]) {
      await expect((api.discardAgentChatSend as (...a: unknown[]) => Promise<unknown>)(...args)).rejects.toMatchObject({ code: "invalid-input" });
    }
    // Nothing moved: the message is still the chat's one entry, and nothing waits.
    const chat = await api.readAgentChat(scout.id);
    expect(chat!.page!.entries.map((e) => e.id)).toEqual([sent.entry.id]);
    expect(chat!.outbox).toEqual([]);
  });

  run("the table of chats lists every chat begun in the scope, once, with whose it is; refused while agent chat is off", async ({ api }) => {
    await expect(api.listAgentChats()).rejects.toMatchObject(disabled);
    await api.updateExperimentalSettings({ enableAgentChat: true });
    expect(await api.listAgentChats()).toEqual([]);
    const scout = await api.createAgent({ name: "Scout" });
    // Reading a chat never used lists nothing: only a first send begins (and registers) one.
    expect(await api.readAgentChat(scout.id)).toBeNull();
    expect(await api.listAgentChats()).toEqual([]);
    const first = delivered(await api.sendAgentChat(scout.id, { text: "one", clientRequestId: "a" }));
    delivered(await api.sendAgentChat(scout.id, { text: "two", clientRequestId: "b" }));
    const planner = delivered(await api.sendAgentChat(PLANNER_AGENT_ID, { text: "three", clientRequestId: "c" }));
    const person = (await api.getDocument(first.planId)).agentChat!.person;
    const listed = await api.listAgentChats();
    expect([...listed].sort((a, b) => a.agentId.localeCompare(b.agentId))).toEqual(
      [
        { agentId: scout.id, planId: first.planId, person: expect.objectContaining({ key: person }), mine: true },
        { agentId: PLANNER_AGENT_ID, planId: planner.planId, person: expect.objectContaining({ key: person }), mine: true },
      ].sort((a, b) => a.agentId.localeCompare(b.agentId)),
    );
    await expect((api.listAgentChats as (...args: unknown[]) => Promise<unknown>)("extra")).rejects.toMatchObject({ code: "invalid-input" });
  });

  run("a handoff makes a listed plan and the chat's card, the same ones for a retry; bounds and bad arguments are refused naming the field", async ({ api }) => {
    await api.updateExperimentalSettings({ enableAgentChat: true });
    const scout = await api.createAgent({ name: "Scout" });
    await expect(api.handOffAgentChatPlan(scout.id, { title: "T", brief: "B", clientRequestId: "h" })).rejects.toMatchObject({ code: "not-found" });
    const { planId } = delivered(await api.sendAgentChat(scout.id, { text: "Draft a launch plan", clientRequestId: "handoff-first" }));

    for (const [input, field] of [
      [{ title: " ", brief: "B", clientRequestId: "h" }, "title"],
      [{ title: "t".repeat(MAX_TITLE_CHARS + 1), brief: "B", clientRequestId: "h" }, "title"],
      [{ title: "T", brief: "", clientRequestId: "h" }, "brief"],
      [{ title: "T", brief: "b".repeat(MAX_HANDOFF_BRIEF_BYTES + 1), clientRequestId: "h" }, "brief"],
      [{ title: "T", brief: "B", clientRequestId: "x".repeat(MAX_CLIENT_REQUEST_ID_CHARS + 1) }, "clientRequestId"],
    ] as const) {
      await expect(api.handOffAgentChatPlan(scout.id, input)).rejects.toMatchObject({ code: "invalid-input", message: expect.stringContaining(field) });
    }
    expect(await api.listDocuments()).toEqual([]);

    const made = await api.handOffAgentChatPlan(scout.id, { title: ` ${"t".repeat(MAX_TITLE_CHARS)} `, brief: "b".repeat(MAX_HANDOFF_BRIEF_BYTES), clientRequestId: "h-1" });
    const title = "t".repeat(MAX_TITLE_CHARS);
    expect(made.entry).toMatchObject({ mine: true, handoff: { documentId: made.documentId, title } });
    expect((await api.listDocuments()).map((d) => [d.id, d.title])).toEqual([[made.documentId, title]]);
    expect(await api.getDocument(made.documentId)).toMatchObject({ id: made.documentId, title });
    expect((await api.readAgentChat(scout.id))!.page!.entries.filter((e) => e.handoff).map((e) => e.id)).toEqual([made.entry.id]);
    expect((await api.readConversation(planId)).entries.find((e) => e.id === made.entry.id)).toMatchObject({ handoff: { documentId: made.documentId, title } });

    expect(await api.handOffAgentChatPlan(scout.id, { title, brief: "b".repeat(MAX_HANDOFF_BRIEF_BYTES), clientRequestId: "h-1" })).toEqual(made);
    const other = await api.handOffAgentChatPlan(scout.id, { title: "Another", brief: "B", clientRequestId: "h-2" });
    expect(other.documentId).not.toBe(made.documentId);
    expect((await api.listDocuments()).map((d) => d.id).sort()).toEqual([made.documentId, other.documentId].sort());
  });
}
