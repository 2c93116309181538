/**
 * The agent chat outbox against a real relay (issue #27). Sends made while the relay's team is not known yet (the relay
 * down since the app was set up) wait on the device, answered 'queued' and listed by the chat's read; a retry is the
 * same queued send and a reused key another text is refused. Then either the team becomes known while the app runs,
 * or the app is closed and a new core starts on the same data folder with the relay reachable: each send is delivered
 * exactly once, in send order, and a teammate reads them so through the relay. A waiting send discarded meanwhile is
 * never delivered, while the ones around it are, in order.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import { describe, expect, it } from "vitest";
import type { AgentChatSendResult, ChopinApi } from "../../shared/api.js";
import { PLANNER_AGENT_ID } from "../../shared/schema/agent-profiles.js";
import { waitFor } from "../../shared/wait-for.js";
import { startRelay, type RunningRelay } from "../../sync-relay/server.js";
import { createAppCore } from "../core/app-core.js";
import type { AppCore, AppCoreOptions } from "../core/types.js";
import { cleanupsAfterEach } from "../sync/test-helpers.js";

const { cleanups, dir } = cleanupsAfterEach();

async function core(dataDir: string, options: Partial<AppCoreOptions> = {}): Promise<AppCore> {
  const c = await createAppCore({ dataDir, mcpPort: 0, enableAgentChat: true, planner: { off: true }, ...options });
  cleanups.push(() => c.close());
  return c;
}

async function relayAt(dataDir: string, port?: number): Promise<RunningRelay> {
  const relay = await startRelay({ dataDir, ...(port !== undefined ? { port } : {}) });
  cleanups.push(() => relay.close());
  return relay;
}

/** A relay that was set up (its users and tokens kept in its folder), then stopped: the app cannot reach it. */
async function stoppedRelay(): Promise<{ dataDir: string; port: number; url: string; alice: string; bob: string }> {
  const dataDir = dir("chopin-outbox-relay-");
  const relay = await startRelay({ dataDir });
  const setUp = { dataDir, port: relay.port, url: relay.url, alice: relay.users.add("alice").token, bob: relay.users.add("bob").token };
  await relay.close();
  return setUp;
}

const queued = (result: AgentChatSendResult) => {
  if (!result.queued) throw new Error("delivered while the team is pending");
  return result;
};

/** The person's messages of the chat (texts, in the conversation's order) once it has begun with `count` of them. */
async function deliveredTexts(api: ChopinApi, count: number): Promise<{ planId: DocumentId; ids: string[]; texts: string[] } | null> {
  const chat = await api.readAgentChat(PLANNER_AGENT_ID);
  if (!chat || chat.planId === null) return null;
  const mine = chat.page.entries.filter((e) => e.author.kind === "person");
  return mine.length >= count && chat.outbox.length === 0 ? { planId: chat.planId as DocumentId, ids: mine.map((e) => e.id), texts: mine.map((e) => e.text) } : null;
}

describe("the agent chat outbox while the relay's team is pending", () => {
  it("keeps sends across a restart and delivers each exactly once, in send order, when the relay is reached", { timeout: 120_000 }, async () => {
    const relay = await stoppedRelay();
    const aliceDir = dir("chopin-outbox-alice-");
    const first = await core(aliceDir, { relayUrl: relay.url, relayToken: relay.alice });
    expect((await first.api.listAgents()).teamPending).toBe(true);
    expect(await first.api.readAgentChat(PLANNER_AGENT_ID).catch((e: { code: string }) => e.code)).toBe("relay-unavailable");

    const texts = ["one", "two", "three", "four"];
    const sent = (await Promise.all(texts.map((text, i) => first.api.sendAgentChat(PLANNER_AGENT_ID, { text, clientRequestId: `q-${i}` })))).map(queued);
    for (const [i, s] of sent.entries()) {
      expect(s).toMatchObject({ queued: true, planId: null, entry: null, created: true, message: { clientRequestId: `q-${i}`, text: texts[i], status: "waiting" } });
    }
    // The first was tried and refused for now; the later ones wait behind it, untried.
    expect(sent.map((s) => s.message.error?.code ?? null)).toEqual(["relay-unavailable", null, null, null]);
    // A retry is the same queued send; the key with another text is refused; the chat lists what waits, in order.
    expect(queued(await first.api.sendAgentChat(PLANNER_AGENT_ID, { text: "two", clientRequestId: "q-1" }))).toMatchObject({ created: false, message: { clientRequestId: "q-1" } });
    await expect(first.api.sendAgentChat(PLANNER_AGENT_ID, { text: "two!", clientRequestId: "q-1" })).rejects.toMatchObject({ code: "invalid-input" });
    const waiting = await first.api.readAgentChat(PLANNER_AGENT_ID);
    expect(waiting).toMatchObject({ planId: null, page: null, planner: null, state: "active" });
    expect(waiting!.outbox.map((m) => [m.text, m.status])).toEqual(texts.map((t) => [t, "waiting"]));
    await first.close();

    // The relay is back on its address; a new core opens the same folder (the relay's address and token kept in it).
    await relayAt(relay.dataDir, relay.port);
    const second = await core(aliceDir);
    const chat = await waitFor(() => deliveredTexts(second.api, texts.length), "the queued sends were delivered", 60_000);
    expect(chat.texts).toEqual(texts);
    expect(new Set(chat.ids).size).toBe(texts.length);
    // A retry after delivery is the delivered entry; nothing is sent twice.
    expect(await second.api.sendAgentChat(PLANNER_AGENT_ID, { text: "two", clientRequestId: "q-1" })).toMatchObject({ queued: false, planId: chat.planId, created: false, entry: { id: chat.ids[1] } });
    expect((await deliveredTexts(second.api, texts.length))!.texts).toEqual(texts);

    // Through the relay: a teammate reads the chat's messages once each, in order.
    const bob = await core(dir("chopin-outbox-bob-"), { relayUrl: relay.url, relayToken: relay.bob });
    const read = async () => (await bob.api.readConversation(chat.planId).catch(() => null))?.entries.map((e) => e.text) ?? [];
    await waitFor(async () => (await read()).length === texts.length, "bob reads the chat", 60_000);
    expect(await read()).toEqual(texts);
  });

  it("delivers what waited as soon as the team becomes known, the app still running", { timeout: 120_000 }, async () => {
    const relay = await stoppedRelay();
    const alice = await core(dir("chopin-outbox-alice-"), { relayUrl: relay.url, relayToken: relay.alice });
    queued(await alice.api.sendAgentChat(PLANNER_AGENT_ID, { text: "written offline", clientRequestId: "w-1" }));
    queued(await alice.api.sendAgentChat(PLANNER_AGENT_ID, { text: "and another", clientRequestId: "w-2" }));
    await relayAt(relay.dataDir, relay.port);
    const chat = await waitFor(() => deliveredTexts(alice.api, 2), "the queued sends were delivered once the team was known", 60_000);
    expect(chat.texts).toEqual(["written offline", "and another"]);
  });

  it("never delivers a waiting send discarded while the team was pending; the ones around it go, in order", { timeout: 120_000 }, async () => {
    const relay = await stoppedRelay();
    const alice = await core(dir("chopin-outbox-alice-"), { relayUrl: relay.url, relayToken: relay.alice });
    for (const [i, text] of ["before", "changed my mind", "after"].entries()) queued(await alice.api.sendAgentChat(PLANNER_AGENT_ID, { text, clientRequestId: `d-${i}` }));
    const moved: string[] = [];
    alice.events.on("agent-chat-outbox-changed", ({ agentId }) => moved.push(agentId));
    expect(await alice.api.discardAgentChatSend(PLANNER_AGENT_ID, "d-1")).toMatchObject({ clientRequestId: "d-1", text: "changed my mind", status: "waiting" });
    expect(moved).toEqual([PLANNER_AGENT_ID]);
    expect((await alice.api.readAgentChat(PLANNER_AGENT_ID))!.outbox.map((m) => m.text)).toEqual(["before", "after"]);

    await relayAt(relay.dataDir, relay.port);
    const chat = await waitFor(() => deliveredTexts(alice.api, 2), "the sends left were delivered once the team was known", 60_000);
    expect(chat.texts).toEqual(["before", "after"]);
    // Through the relay as well: the teammate's copy holds exactly those two.
    const bob = await core(dir("chopin-outbox-bob-"), { relayUrl: relay.url, relayToken: relay.bob });
    const read = async () => (await bob.api.readConversation(chat.planId).catch(() => null))?.entries.map((e) => e.text) ?? [];
    await waitFor(async () => (await read()).length === 2, "bob reads the chat", 60_000);
    expect(await read()).toEqual(["before", "after"]);
    await expect(alice.api.discardAgentChatSend(PLANNER_AGENT_ID, "d-0")).rejects.toMatchObject({ code: "revision-conflict" });
  });
});
