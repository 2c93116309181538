/**
 * Agent chats between real app cores through a real relay (issue #27), each core signed in to the fake GitHub with a
 * supplied token: two devices of one person (alice) sending their first messages to one agent at once end with one
 * chat (one plan id, both messages in one conversation); a teammate (bob) reads that chat but cannot post in it, never
 * lists it among plans, has no chat of his own with that agent, and his app, which could run agents, never claims it.
 */
import { next as A } from "@automerge/automerge";
import type { DocumentId } from "@automerge/automerge-repo";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
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
    // The relay takes GitHub sign-ins: a github:<login> chat is registered in its table only by that GitHub user.
    const relay = await startRelay({ dataDir: dir("chopin-chat-relay-"), github: { apiUrl: github.url } });
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

    // The relay's table names the chat once (both devices registered it: the same triple), as alice's, and every
    // member lists it: bob sees it as a teammate's, read-only.
    const listedBy = async (c: AppCore) => (await c.api.listAgentChats().catch(() => [])).filter((chat) => chat.agentId === scout.id);
    await waitFor(async () => (await listedBy(bob)).length === 1, "bob lists alice's chat from the relay's table", 30_000);
    expect(await listedBy(bob)).toEqual([{ agentId: scout.id, planId, person: { key: "github:alice", name: "alice", login: "alice" }, mine: false }]);
    expect(await listedBy(aliceTwo)).toEqual([{ agentId: scout.id, planId, person: { key: "github:alice", name: "alice", login: "alice" }, mine: true }]);

    // Bob's app changes nothing in alice's chat plan: not its title, body, repository, archive or a version restore.
    const bobPlan = await bob.api.getDocument(planId);
    expect(bobPlan.teammatesChat).toBe(true);
    expect((await aliceOne.api.getDocument(planId)).teammatesChat).toBeUndefined();
    const forbidden = { code: "forbidden", message: expect.stringContaining("teammate's chat") };
    await expect(bob.api.renameDocument(planId, "Mine now")).rejects.toMatchObject(forbidden);
    await expect(bob.api.archiveDocument(planId)).rejects.toMatchObject(forbidden);
    await expect(bob.planner.documents.updateMarkdown(planId, bobPlan.revision, "# taken over")).rejects.toMatchObject(forbidden);
    await expect(bob.planner.documents.setRepository(planId, { owner: "acme", name: "site" })).rejects.toMatchObject(forbidden);
    const versions = await bob.api.listVersions(planId);
    await expect(bob.api.restoreVersion(planId, versions[0]!.id)).rejects.toMatchObject(forbidden);
    // A copy of her plan's bytes is not taken in as a plan of bob's either.
    const bytes = A.save((await bob.repo.find<PlanDocument>(planId)).doc());
    await expect(bob.planner.documents.importDocument(bytes)).rejects.toMatchObject({ code: "forbidden" });
    expect(await bob.api.getDocument(planId)).toMatchObject({ title: "Agent chat", archivedAt: null, repository: null, revision: bobPlan.revision });
    // Alice's own apps change it as any plan of theirs.
    await expect(aliceOne.api.renameDocument(planId, "Launch chat")).resolves.toMatchObject({ title: "Launch chat" });
  });
});
