/**
 * The relay's guard on agent chats (sync-relay/chat-write-guard.ts) between real app cores: alice's two devices link
 * with her relay token while her chat is registered by her GitHub sign-in, and still carry her messages to each other
 * after registration (the registration carried her relay token too, so the relay linked her handle to her login:
 * sync-relay/token-links.ts); bob, linked by his own relay token (and signed in to GitHub as bob), and carol, linked
 * by her GitHub sign-in, run modified apps that write straight into her chat plan and conversation with their Repos,
 * past every service: the relay drops every such write, neither of alice's devices ever holds them, and both go on
 * reading her messages live. Fails without the link (alice's own devices are cut off) and with the old rule that let
 * any relay-token user write a GitHub chat (bob's writes land).
 */
import { next as A } from "@automerge/automerge";
import type { DocumentId } from "@automerge/automerge-repo";
import { describe, expect, it } from "vitest";
import { agentStarsIdOf } from "../../shared/node/agent-stars-identity.js";
import { conversationIdOf } from "../../shared/node/conversation-identity.js";
import { waitFor } from "../../shared/wait-for.js";
import { startFakeGitHub } from "../../test-support/fake-github/server.js";
import { RELAY_PEER_ID, startRelay } from "../../sync-relay/server.js";
import { rawClient, RawDocSync } from "../../sync-relay/test-wire.js";
import { createAppCore } from "../core/app-core.js";
import type { AppCore, AppCoreOptions } from "../core/types.js";
import { cleanupsAfterEach } from "../sync/test-helpers.js";

const { cleanups, dir } = cleanupsAfterEach();

async function core(name: string, options: Partial<AppCoreOptions>): Promise<AppCore> {
  const c = await createAppCore({ dataDir: dir(`chopin-guard-${name}-`), mcpPort: 0, enableAgentChat: true, planner: { off: true }, ...options });
  cleanups.push(() => c.close());
  await c.gitHubSignInSettled();
  await waitFor(async () => !(await c.api.listAgents()).teamPending, `${name} learnt the team`);
  return c;
}

describe("the relay's guard on agent chats, between apps", () => {
  it("keeps a teammate's modified app from writing into a person's chat, while the person's own devices and the teammate's reading go on", { timeout: 120_000 }, async () => {
    const github = await startFakeGitHub();
    cleanups.push(() => github.close());
    const relay = await startRelay({ dataDir: dir("chopin-guard-relay-"), github: { apiUrl: github.url } });
    cleanups.push(() => relay.close());
    const aliceToken = relay.users.add("alice").token;
    const bobToken = relay.users.add("bob").token;
    const signedIn = (login: string) => ({ githubToken: `ghu_${login}`, githubApiUrl: github.url });
    const aliceOne = await core("alice-1", { relayUrl: relay.url, relayToken: aliceToken, ...signedIn("alice") });
    const aliceTwo = await core("alice-2", { relayUrl: relay.url, relayToken: aliceToken, ...signedIn("alice") });
    // Bob's app links with his relay token, as the handle "bob", linked to no login but his own at most.
    const bob = await core("bob", { relayUrl: relay.url, relayToken: bobToken, ...signedIn("bob") });
    // No relay token: carol's app links as her GitHub sign-in, gh:carol.
    const carol = await core("carol", { relayUrl: relay.url, ...signedIn("carol") });

    const scout = await aliceOne.api.createAgent({ name: "Scout" });
    await waitFor(async () => (await bob.api.listAgents()).agents.some((a) => a.id === scout.id), "bob sees Scout");
    await waitFor(async () => (await carol.api.listAgents()).agents.some((a) => a.id === scout.id), "carol sees Scout");
    const sent = await aliceOne.api.sendAgentChat(scout.id, { text: "first", clientRequestId: "one-1" });
    expect(sent.planId).not.toBeNull();
    const planId = sent.planId as DocumentId;
    await waitFor(async () => (await bob.api.listAgentChats().catch(() => [])).some((c) => c.planId === planId), "the relay's table holds alice's chat", 30_000);
    expect(relay.chatWrites.guards(planId)).toBe(true);

    // After registration, alice's devices (linked as the handle "alice", which now speaks for gh:alice) carry her messages.
    await aliceTwo.api.sendAgentChat(scout.id, { text: "second", clientRequestId: "two-1" });
    const texts = async (c: AppCore) => (await c.api.readConversation(planId).catch(() => null))?.entries?.map((e) => e.text).sort().join("|") ?? "";
    const chatTexts = async (c: AppCore) => (await c.api.readAgentChat(scout.id))?.page?.entries.map((e) => e.text).sort().join("|") ?? "";
    await waitFor(async () => (await chatTexts(aliceOne)) === "first|second" && (await chatTexts(aliceTwo)) === "first|second", "both of alice's devices hold both messages", 60_000);
    await waitFor(async () => (await texts(bob)) === "first|second", "bob reads both", 60_000);

    await waitFor(async () => (await texts(carol)) === "first|second", "carol reads both", 60_000);

    // Bob's and carol's modified apps write into her plan and her conversation with their Repos, past the services.
    const forged: string[] = [];
    for (const [who, app] of [
      ["bob", bob],
      ["carol", carol],
    ] as const) {
      const plan = await app.repo.find<Record<string, unknown>>(planId);
      plan.change((d) => void (d.title = `Taken by ${who}`));
      const conversation = await app.repo.find<Record<string, unknown>>(conversationIdOf(planId));
      conversation.change((d) => void (d.forgedBy = who));
      // Each forged change is its document's one head right after it is made.
      forged.push(...A.getHeads(plan.doc()), ...A.getHeads(conversation.doc()));
    }
    await waitFor(() => relay.chatWrites.refused >= 4, "the relay drops every write of bob's and carol's", 30_000);

    // Alice writes on: bob reads it live, and her devices and the relay never hold his changes.
    await aliceOne.api.sendAgentChat(scout.id, { text: "third", clientRequestId: "one-2" });
    await waitFor(async () => (await texts(bob)) === "first|second|third", "bob reads her next message", 60_000);
    await waitFor(async () => (await texts(carol)) === "first|second|third", "carol too", 60_000);
    await waitFor(async () => (await chatTexts(aliceTwo)) === "first|second|third", "alice's other device too", 60_000);
    for (const repo of [aliceOne.repo, aliceTwo.repo, relay.repo]) {
      const held = [await repo.find<Record<string, unknown>>(planId), await repo.find<Record<string, unknown>>(conversationIdOf(planId))];
      expect(held[0]!.doc().title).toBe("Agent chat");
      expect(held[1]!.doc().forgedBy).toBeUndefined();
      expect(forged.some((hash) => held.some((h) => A.hasHeads(h.doc(), [hash])))).toBe(false);
    }
  });

  it("keeps a teammate's modified app from writing into a person's stars before any chat of theirs, while her devices star on", { timeout: 120_000 }, async () => {
    const github = await startFakeGitHub();
    cleanups.push(() => github.close());
    const relay = await startRelay({ dataDir: dir("chopin-guard-stars-relay-"), github: { apiUrl: github.url } });
    cleanups.push(() => relay.close());
    const aliceToken = relay.users.add("alice").token;
    const signedIn = (login: string) => ({ githubToken: `ghu_${login}`, githubApiUrl: github.url });
    const aliceOne = await core("stars-alice-1", { relayUrl: relay.url, relayToken: aliceToken, ...signedIn("alice") });
    const aliceTwo = await core("stars-alice-2", { relayUrl: relay.url, relayToken: aliceToken, ...signedIn("alice") });
    const bobToken = relay.users.add("bob").token;
    const starsId = agentStarsIdOf({ scope: { kind: "team", teamIndexId: relay.teamIndexDocumentId }, person: "github:alice" });
    // Her app registered her stars with her GitHub sign-in (and linked her relay token): no chat of hers exists.
    await waitFor(() => relay.chatWrites.guards(starsId), "the relay guards alice's stars", 30_000);
    expect(await aliceOne.api.listAgentChats()).toEqual([]);

    const scout = await aliceOne.api.createAgent({ name: "Scout" });
    await waitFor(async () => (await aliceTwo.api.listAgents()).agents.some((a) => a.id === scout.id), "her other device sees Scout");
    await aliceOne.api.setAgentStarred(scout.id, true);
    const starred = async (c: AppCore) => (await c.api.getAgentSidebar()).starred.map((a) => a.name).join();
    await waitFor(async () => (await starred(aliceTwo)) === "Scout", "her star reaches her other device (her linked token writes)", 60_000);

    // Bob's modified app (his relay token, the sync protocol by hand) writes into her stars: the relay drops it.
    const bobWire = rawClient(relay.url, bobToken);
    cleanups.push(() => bobWire.ws.close());
    await bobWire.join("bob:forger");
    const forgedInto = new RawDocSync<{ stars: Record<string, boolean> }>(bobWire, "bob:forger", RELAY_PEER_ID, starsId, A.init());
    await forgedInto.pull((doc) => doc.stars?.[scout.id] === true, "bob's app reads her stars");
    const refused = relay.chatWrites.refused;
    forgedInto.doc = A.change(forgedInto.doc, (d) => void (d.stars["forged-by-bob"] = true));
    const [forged] = A.getHeads(forgedInto.doc);
    await forgedInto.pull(() => relay.chatWrites.refused > refused, "the relay drops bob's write");

    const builder = await aliceOne.api.createAgent({ name: "Builder" });
    await aliceOne.api.setAgentStarred(builder.id, true);
    await waitFor(async () => (await starred(aliceTwo)) === "Builder,Scout", "her next star reaches her other device", 60_000);
    await forgedInto.pull((doc) => doc.stars?.[builder.id] === true, "bob's app reads her next star");
    for (const repo of [aliceOne.repo, aliceTwo.repo, relay.repo]) {
      const held = await repo.find<{ stars: Record<string, boolean> }>(starsId);
      expect(held.doc().stars["forged-by-bob"]).toBeUndefined();
      expect(A.hasHeads(held.doc(), [forged!])).toBe(false);
    }
  });
});
