/**
 * The core registers a chat in its scope's table of chats (issue #27): a team chat at the relay, also when the relay
 * was down at the first send (the send is not held up; the registration lands once the relay is back), and a chat of
 * this device's own scope in chopin.db's table; a relay token added after a GitHub chat was registered registers it
 * again, so the relay links the token to the login and the person's writes on it are not dropped by the chat guard.
 * Real cores, a real relay, the fake GitHub.
 */
import { describe, expect, it } from "vitest";
import { waitFor } from "../../shared/wait-for.js";
import { AgentChatTable } from "../../shared/node/agent-chat-table.js";
import { startFakeGitHub } from "../../test-support/fake-github/server.js";
import { startRelay } from "../../sync-relay/server.js";
import { RelayTokenLinks } from "../../sync-relay/token-links.js";
import { createAppCore } from "../core/app-core.js";
import type { AppCore, AppCoreOptions } from "../core/types.js";
import { openLocalDb } from "../store/local-db.js";
import { cleanupsAfterEach } from "../sync/test-helpers.js";

const { cleanups, dir } = cleanupsAfterEach();

async function core(dataDir: string, options: Partial<AppCoreOptions>): Promise<AppCore> {
  const c = await createAppCore({ dataDir, mcpPort: 0, enableAgentChat: true, planner: { off: true }, ...options });
  cleanups.push(() => c.close());
  await c.gitHubSignInSettled();
  await waitFor(async () => !(await c.api.listAgents()).teamPending, "the core learnt its team");
  return c;
}

describe("registering agent chats", () => {
  it("registers a chat begun while the relay is down once the relay is back, without holding up the send", { timeout: 120_000 }, async () => {
    const github = await startFakeGitHub();
    cleanups.push(() => github.close());
    const relayDir = dir("chopin-register-relay-");
    const relay = await startRelay({ dataDir: relayDir, github: { apiUrl: github.url } });
    let closeRelay = () => relay.close();
    cleanups.push(() => closeRelay());
    const signedIn = (login: string) => ({ githubToken: `ghu_${login}`, githubApiUrl: github.url });
    const alice = await core(dir("chopin-register-alice-"), { relayUrl: relay.url, relayToken: relay.users.add("alice").token, ...signedIn("alice") });
    const bob = await core(dir("chopin-register-bob-"), { relayUrl: relay.url, relayToken: relay.users.add("bob").token, ...signedIn("bob") });
    const scout = await alice.api.createAgent({ name: "Scout" });
    await waitFor(async () => (await bob.api.listAgents()).agents.some((a) => a.id === scout.id), "bob sees Scout");

    const { port, teamIndexDocumentId } = relay;
    await relay.close();
    await waitFor(async () => (await alice.api.getSyncStatus()).state !== "connected", "alice's app saw the relay go");
    const sent = await alice.api.sendAgentChat(scout.id, { text: "while the relay is down", clientRequestId: "down-1" });
    expect(sent.created).toBe(true);
    await expect(alice.api.listAgentChats()).rejects.toMatchObject({ code: "relay-unavailable" });

    const again = await startRelay({ dataDir: relayDir, port, github: { apiUrl: github.url } });
    closeRelay = () => again.close();
    const table = new AgentChatTable(again.db);
    await waitFor(() => table.list(teamIndexDocumentId).some((c) => c.planId === sent.planId), "the relay's table holds alice's chat", 60_000);
    expect(table.list(teamIndexDocumentId)).toEqual([{ agentId: scout.id, person: "github:alice", planId: sent.planId, registeredBy: "gh:alice", registeredAt: expect.any(Number) }]);
    await waitFor(async () => (await bob.api.listAgentChats().catch(() => [])).length === 1, "bob lists it", 30_000);
    expect(await bob.api.listAgentChats()).toEqual([{ agentId: scout.id, planId: sent.planId, person: { key: "github:alice", name: "alice", login: "alice" }, mine: false }]);
  });

  it("registers a GitHub chat again when a relay token is added, linking the token to the login, and the person's writes go on", { timeout: 120_000 }, async () => {
    const github = await startFakeGitHub();
    cleanups.push(() => github.close());
    const relay = await startRelay({ dataDir: dir("chopin-relink-relay-"), github: { apiUrl: github.url } });
    cleanups.push(() => relay.close());
    const signedIn = (login: string) => ({ githubToken: `ghu_${login}`, githubApiUrl: github.url });
    // Alice begins signed in to GitHub only: her chat is registered by gh:alice, and no relay token is linked.
    const alice = await core(dir("chopin-relink-alice-"), { relayUrl: relay.url, ...signedIn("alice") });
    const bob = await core(dir("chopin-relink-bob-"), { relayUrl: relay.url, relayToken: relay.users.add("bob").token, ...signedIn("bob") });
    const scout = await alice.api.createAgent({ name: "Scout" });
    const sent = await alice.api.sendAgentChat(scout.id, { text: "first", clientRequestId: "one" });
    const planId = sent.planId!;
    await waitFor(() => relay.chatWrites.guards(planId), "the relay guards alice's chat", 60_000);
    const links = new RelayTokenLinks(relay.db);
    expect(links.linkOf("alice")).toBeNull();

    // She adds her relay token: her app now links as the handle "alice", and registers her chat again with it beside.
    await alice.api.updateSettings({ relayToken: relay.users.add("alice").token });
    await waitFor(() => links.linkOf("alice") === "gh:alice", "the relay links alice's token to gh:alice", 60_000);
    await alice.api.sendAgentChat(scout.id, { text: "second", clientRequestId: "two" });
    const texts = async () => (await bob.api.readConversation(planId).catch(() => null))?.entries?.map((e) => e.text).sort().join("|") ?? "";
    await waitFor(async () => (await texts()) === "first|second", "bob reads both of alice's messages", 60_000);
    expect(relay.chatWrites.refused).toBe(0);
  });

  it("registers a local-only chat in this device's own table, once, and lists it from there", { timeout: 60_000 }, async () => {
    const dataDir = dir("chopin-register-local-");
    const c = await core(dataDir, {});
    const scout = await c.api.createAgent({ name: "Scout" });
    const sent = await c.api.sendAgentChat(scout.id, { text: "hello", clientRequestId: "a" });
    await c.api.sendAgentChat(scout.id, { text: "again", clientRequestId: "b" });
    const listed = await c.api.listAgentChats();
    expect(listed).toEqual([{ agentId: scout.id, planId: sent.planId, person: { key: expect.stringMatching(/^device:/) }, mine: true }]);
    await c.close();
    const db = openLocalDb(dataDir);
    try {
      const rows = db.prepare("SELECT team, agent_id, person, plan_id FROM agent_chats").all();
      expect(rows).toEqual([{ team: expect.stringMatching(/^device:/), agent_id: scout.id, person: listed[0]!.person.key, plan_id: sent.planId }]);
    } finally {
      db.close();
    }
  });
});
