/**
 * Agent chats between real app cores through a real relay (issue #27), each core signed in to the fake GitHub with a
 * supplied token: two devices of one person (alice) sending their first messages to one agent at once end with one
 * chat (one plan id, both messages in one conversation); a teammate (bob) reads that chat but cannot post in it, never
 * lists it among plans, has no chat of his own with that agent, and his app, which could run agents, never claims it.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import { describe, expect, it } from "vitest";
import { waitFor } from "../../shared/wait-for.js";
import { startFakeGitHub } from "../../test-support/fake-github/server.js";
import { startFakeOpenAI } from "../../test-support/fake-openai/server.js";
import { startRelay } from "../../sync-relay/server.js";
import { createAppCore } from "../core/app-core.js";
import type { AppCore, AppCoreOptions } from "../core/types.js";
import { cleanupsAfterEach } from "../sync/test-helpers.js";

const { cleanups, dir } = cleanupsAfterEach();

async function core(name: string, options: Partial<AppCoreOptions>): Promise<AppCore> {
  const c = await createAppCore({ dataDir: dir(`chopin-chat-${name}-`), mcpPort: 0, enableAgentChat: true, ...options });
  cleanups.push(() => c.close());
  await c.gitHubSignInSettled();
  await waitFor(async () => !(await c.api.listAgents()).teamPending, `${name} learnt the team`);
  return c;
}

describe("agent chats through a relay", () => {
  it("give two devices of one person one chat, which a teammate reads but neither posts in nor runs", { timeout: 120_000 }, async () => {
    const github = await startFakeGitHub();
    cleanups.push(() => github.close());
    const model = await startFakeOpenAI();
    cleanups.push(() => model.close());
    const relay = await startRelay({ dataDir: dir("chopin-chat-relay-") });
    cleanups.push(() => relay.close());
    const aliceToken = relay.users.add("alice").token;
    const signedIn = (login: string) => ({ githubToken: `ghu_${login}`, githubApiUrl: github.url });
    // Alice's apps run no agent here (AGENT=off): the chat is about which document, not about answers.
    const aliceOne = await core("alice-1", { relayUrl: relay.url, relayToken: aliceToken, ...signedIn("alice"), planner: { off: true } });
    const aliceTwo = await core("alice-2", { relayUrl: relay.url, relayToken: aliceToken, ...signedIn("alice"), planner: { off: true } });
    // Bob's app could run agents (a provider configured): only the chat's person keeps it from running Alice's chat.
    const bob = await core("bob", {
      relayUrl: relay.url,
      relayToken: relay.users.add("bob").token,
      ...signedIn("bob"),
      planner: { provider: { type: "openai", baseUrl: model.url, model: "fake-gpt", apiKey: model.apiKey } },
    });

    const scout = await aliceOne.api.createAgent({ name: "Scout" });
    await waitFor(async () => (await aliceTwo.api.listAgents()).agents.some((a) => a.id === scout.id) && (await bob.api.listAgents()).agents.some((a) => a.id === scout.id), "everyone sees Scout");
    expect(await aliceTwo.api.readAgentChat(scout.id)).toBeNull();

    const [one, two] = await Promise.all([
      aliceOne.api.sendAgentChat(scout.id, { text: "from the laptop", clientRequestId: "laptop-1" }),
      aliceTwo.api.sendAgentChat(scout.id, { text: "from the desktop", clientRequestId: "desktop-1" }),
    ]);
    expect(two.planId).toBe(one.planId);
    const planId = one.planId as DocumentId;
    const bothMessages = async (c: AppCore) => {
      const chat = await c.api.readAgentChat(scout.id);
      return chat?.planId === planId && chat.page.entries.map((e) => e.text).sort().join("|") === "from the desktop|from the laptop";
    };
    await waitFor(async () => (await bothMessages(aliceOne)) && (await bothMessages(aliceTwo)), "one chat holds both messages on both devices", 60_000);
    for (const c of [aliceOne, aliceTwo]) expect((await c.api.listDocuments()).map((d) => d.id)).not.toContain(planId);

    // Bob reads Alice's chat as a plan's conversation (the team's list brings it), and writes nothing in it.
    await waitFor(async () => (await bob.api.readConversation(planId).catch(() => null))?.total === 2, "bob reads alice's chat", 60_000);
    expect(await bob.api.getDocument(planId)).toMatchObject({ agentChat: { agentId: scout.id, person: "github:alice" }, shared: true });
    await expect(bob.api.postMessage(planId, { text: "me too", to: "planner", clientRequestId: "bob-1" })).rejects.toMatchObject({ code: "forbidden" });
    await expect(bob.api.postMessage(planId, { text: "hi room", to: "room", clientRequestId: "bob-2" })).rejects.toMatchObject({ code: "forbidden" });
    await expect(bob.api.abortPlannerTurn(planId)).rejects.toMatchObject({ code: "forbidden" });
    expect((await bob.api.listDocuments()).map((d) => d.id)).not.toContain(planId);
    expect(await bob.api.readAgentChat(scout.id)).toBeNull();
    // Messages wait for the agent, nobody runs it, and Bob's app refuses to take it though it could run agents.
    const tried = await bob.planner.ownership.invoke(planId);
    expect(tried).toMatchObject({ owner: null, ownedHere: false, refusal: { code: "forbidden" } });
    expect(await bob.api.getPlannerState(planId)).toMatchObject({ owner: null });
    expect(model.requests).toHaveLength(0);
  });
});
