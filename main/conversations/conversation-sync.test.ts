/**
 * Conversations between real app cores through a real relay on 127.0.0.1 (issue #25): both directions, a message
 * written while the relay is down goes out when it is back (shown as not yet delivered meanwhile) and a retry makes no
 * second entry; a private plan's conversation never reaches the relay; a restart keeps the conversation and what its
 * retries would have made.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import { describe, expect, it } from "vitest";
import type { ChopinApi } from "../../shared/api.js";
import { conversationIdOf } from "../../shared/node/conversation-identity.js";
import { waitFor } from "../../shared/wait-for.js";
import { startRelay, type RunningRelay } from "../../sync-relay/server.js";
import { createAppCore } from "../core/app-core.js";
import type { AppCore } from "../core/types.js";
import { cleanupsAfterEach } from "../sync/test-helpers.js";

const { cleanups, dir } = cleanupsAfterEach();

async function core(dataDir: string, relay?: { url: string; token: string }, displayName?: string): Promise<AppCore> {
  const c = await createAppCore({ dataDir, mcpPort: 0, relayUrl: relay?.url, relayToken: relay?.token });
  cleanups.push(() => c.close());
  if (displayName) await c.api.updateSettings({ displayName });
  return c;
}

const texts = async (api: ChopinApi, id: string) => (await api.readConversation(id)).entries.map((e) => e.text);

describe("a shared plan's conversation between two people", () => {
  it("carries messages both ways, and one written while the relay is down goes out when it is back, once", async () => {
    const relayDir = dir("chopin-chat-relay-");
    let relay: RunningRelay = await startRelay({ dataDir: relayDir });
    cleanups.push(() => relay.close());
    const alice = await core(dir("chopin-chat-alice-"), { url: relay.url, token: relay.users.add("alice").token }, "Alice");
    const bob = await core(dir("chopin-chat-bob-"), { url: relay.url, token: relay.users.add("bob").token }, "Bob");
    await waitFor(async () => (await alice.api.getSyncStatus()).state === "connected", "alice connected");

    const plan = await alice.api.createDocument({ title: "Launch", shared: true });
    await waitFor(async () => (await bob.api.listDocuments()).some((d) => d.id === plan.id), "bob sees the plan");

    await alice.api.postMessage(plan.id, { text: "Hello Bob", to: "room", clientRequestId: "a-1" });
    await waitFor(async () => (await texts(bob.api, plan.id)).includes("Hello Bob"), "bob reads alice");
    const fromAlice = (await bob.api.readConversation(plan.id)).entries[0]!;
    expect(fromAlice).toMatchObject({ author: { kind: "person", name: "Alice" }, mine: false, unread: true, delivery: "delivered" });
    await bob.api.postMessage(plan.id, { text: "Hi Alice", to: "room", clientRequestId: "b-1" });
    await waitFor(async () => (await texts(alice.api, plan.id)).join("|") === "Hello Bob|Hi Alice", "alice reads bob's reply after her message");

    // The relay goes away: Bob writes anyway, and his message waits as not yet delivered.
    const port = relay.port;
    await relay.close();
    await waitFor(async () => (await bob.api.getSyncStatus()).state !== "connected", "bob offline");
    const offline = await bob.api.postMessage(plan.id, { text: "Written offline", to: "room", clientRequestId: "b-2" });
    expect(offline.entry.delivery).toBe("pending");
    expect((await bob.api.readConversation(plan.id)).entries.at(-1)).toMatchObject({ text: "Written offline", delivery: "pending" });

    relay = await startRelay({ dataDir: relayDir, port });
    await waitFor(async () => (await texts(alice.api, plan.id)).includes("Written offline"), "alice gets the offline message");
    await waitFor(async () => (await bob.api.readConversation(plan.id)).entries.at(-1)?.delivery === "delivered", "bob's message shows delivered");

    // A retry of the same send (say the window did not hear the answer) makes no second entry anywhere.
    expect(await bob.api.postMessage(plan.id, { text: "Written offline", to: "room", clientRequestId: "b-2" })).toMatchObject({ created: false, entry: { id: offline.entry.id } });
    await alice.api.postMessage(plan.id, { text: "Got it", to: "room", clientRequestId: "a-2" });
    await waitFor(async () => (await texts(bob.api, plan.id)).includes("Got it"), "bob reads the last message");
    expect(await texts(bob.api, plan.id)).toEqual(["Hello Bob", "Hi Alice", "Written offline", "Got it"]);
    expect(await texts(alice.api, plan.id)).toEqual(["Hello Bob", "Hi Alice", "Written offline", "Got it"]);
  });

  it("keeps a private plan's conversation off the relay", async () => {
    const relay = await startRelay({ dataDir: dir("chopin-chat-private-relay-") });
    cleanups.push(() => relay.close());
    const alice = await core(dir("chopin-chat-private-"), { url: relay.url, token: relay.users.add("alice").token });
    await waitFor(async () => (await alice.api.getSyncStatus()).state === "connected", "connected");
    const secret = await alice.api.createDocument({ title: "Secret", shared: false });
    await alice.api.postMessage(secret.id, { text: "private words", to: "room", clientRequestId: "p-1" });
    expect((await alice.api.readConversation(secret.id)).entries[0]?.delivery).toBe("local");
    // A shared plan's conversation written after it reaches the relay; the private one, written first, must not have.
    const open = await alice.api.createDocument({ title: "Open", shared: true });
    await alice.api.postMessage(open.id, { text: "team words", to: "room", clientRequestId: "s-1" });
    const sharedConversation = conversationIdOf(open.id as DocumentId);
    await waitFor(() => relay.repo.handles[sharedConversation]?.isReady() === true, "the shared conversation reached the relay");
    expect(relay.repo.handles[conversationIdOf(secret.id as DocumentId)]).toBeUndefined();
    expect(relay.repo.handles[secret.id as DocumentId]).toBeUndefined();
  });
});

describe("a conversation across a restart", () => {
  it("is opened from storage, not begun again, and a retry after the restart makes no second entry", async () => {
    const dataDir = dir("chopin-chat-restart-");
    const first = await core(dataDir, undefined, "Ada");
    const plan = await first.api.createDocument({ title: "Notes" });
    const sent = await first.api.postMessage(plan.id, { text: "before the restart", to: "planner", clientRequestId: "r-1" });
    await first.api.setConversationDraft(plan.id, "unsent words");
    await first.close();

    const again = await core(dataDir);
    expect((await again.api.readConversation(plan.id)).entries).toMatchObject([{ id: sent.entry.id, text: "before the restart", to: "planner", mine: true, delivery: "local" }]);
    expect(await again.api.postMessage(plan.id, { text: "before the restart", to: "planner", clientRequestId: "r-1" })).toMatchObject({ created: false });
    expect(await again.api.getConversationDraft(plan.id)).toBe("unsent words");
  });

  it("goes with its plan when the plan is deleted", async () => {
    const c = await core(dir("chopin-chat-delete-"));
    const plan = await c.api.createDocument({ title: "Gone soon" });
    await c.api.postMessage(plan.id, { text: "bye", to: "room", clientRequestId: "d-1" });
    await c.api.setConversationDraft(plan.id, "draft");
    await c.api.archiveDocument(plan.id);
    await c.api.deleteDocument(plan.id);
    expect(c.repo.handles[conversationIdOf(plan.id as DocumentId)]?.isDeleted?.() ?? true).toBe(true);
    await expect(c.api.readConversation(plan.id)).rejects.toMatchObject({ code: "not-found" });
  });
});
