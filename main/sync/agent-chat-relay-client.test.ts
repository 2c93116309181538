/**
 * The core's client of the relay's table of chats against a real relay (relay tokens, no GitHub admission): which
 * credential registers whose chat (a GitHub sign-in never sent where the gate says no), the relay's refusals typed and
 * not worth retrying, a relay that cannot be reached 'relay-unavailable' and worth retrying; a GitHub chat's
 * registration carries the relay token too, so the relay links it to the login (and a device chat's never does). A
 * person's stars are registered by the same rules.
 */
import { describe, expect, it } from "vitest";
import { agentChatIdOf } from "../../shared/node/agent-chat-identity.js";
import { startRelay } from "../../sync-relay/server.js";
import { startFakeGitHub } from "../../test-support/fake-github/server.js";
import { listAgentChatsAtRelay, registerAgentChatAtRelay, registerAgentStarsAtRelay, registrationToken, worthRetrying } from "./agent-chat-relay-client.js";
import { cleanupsAfterEach } from "./test-helpers.js";

const { cleanups, dir } = cleanupsAfterEach();

const chatOf = (agentId: string, person: string) => ({ agentId, person, planId: agentChatIdOf({ scope: { kind: "team", teamIndexId: "t" }, agentId, person }) });

describe("the relay's table of chats, from the core", () => {
  it("registers a device's chat with the relay token and lists it; the relay's own refusals are typed and final", async () => {
    const relay = await startRelay({ dataDir: dir("chopin-chat-client-relay-") });
    cleanups.push(() => relay.close());
    const alice = { url: relay.url, relayToken: relay.users.add("alice").token, githubToken: null };
    const chat = chatOf("scout", "device:laptop");
    expect(await registerAgentChatAtRelay(alice, chat)).toMatchObject({ created: true, chat: { ...chat, registeredBy: "alice" } });
    expect(await registerAgentChatAtRelay(alice, chat)).toMatchObject({ created: false });
    expect(await listAgentChatsAtRelay(alice)).toEqual([expect.objectContaining(chat)]);

    const conflict = await registerAgentChatAtRelay(alice, { ...chat, planId: chatOf("other", "device:laptop").planId }).catch((e: unknown) => e);
    expect(conflict).toMatchObject({ code: "idempotency-conflict" });
    expect(worthRetrying(conflict)).toBe(false);
    const bob = { url: relay.url, relayToken: relay.users.add("bob").token, githubToken: null };
    const notHis = await registerAgentChatAtRelay(bob, chatOf("planner", "device:laptop")).catch((e: unknown) => e);
    expect(notHis).toMatchObject({ code: "forbidden" });
    expect(worthRetrying(notHis)).toBe(false);

    // A GitHub user's chat needs their GitHub sign-in, and this relay takes none: refused here, nothing sent.
    const noGitHub = await registerAgentChatAtRelay({ ...alice, githubToken: "ghu_alice" }, chatOf("scout", "github:alice")).catch((e: unknown) => e);
    expect(noGitHub).toMatchObject({ code: "unauthorized", message: expect.stringContaining("does not take GitHub sign-ins") });
    expect(worthRetrying(noGitHub)).toBe(false);

    // Stars go the same way: the device's under its first registrant's token, another member's refused and final.
    expect(await registerAgentStarsAtRelay(alice, "device:laptop")).toMatchObject({ created: true, stars: { person: "device:laptop", registeredBy: "alice" } });
    expect(await registerAgentStarsAtRelay(alice, "device:laptop")).toMatchObject({ created: false });
    const starsNotHis = await registerAgentStarsAtRelay(bob, "device:laptop").catch((e: unknown) => e);
    expect(starsNotHis).toMatchObject({ code: "forbidden" });
    expect(worthRetrying(starsNotHis)).toBe(false);

    await relay.close();
    await expect(registerAgentStarsAtRelay(alice, "device:laptop")).rejects.toMatchObject({ code: "relay-unavailable" });
    const down = await registerAgentChatAtRelay(alice, chatOf("planner", "device:laptop")).catch((e: unknown) => e);
    expect(down).toMatchObject({ code: "relay-unavailable" });
    expect(worthRetrying(down)).toBe(true);
    await expect(listAgentChatsAtRelay(alice)).rejects.toMatchObject({ code: "relay-unavailable" });
  });

  it("never sends a GitHub sign-in over plain ws:// to another host, and says what is missing", async () => {
    await expect(registrationToken({ url: "ws://relay.example.com", relayToken: null, githubToken: "ghu_alice" }, "github:alice")).rejects.toMatchObject({ code: "unauthorized", message: expect.stringContaining("wss://") });
    await expect(registrationToken({ url: "ws://127.0.0.1:1", relayToken: "t", githubToken: null }, "github:alice")).rejects.toMatchObject({ code: "unauthorized" });
    await expect(registrationToken({ url: "ws://127.0.0.1:1", relayToken: null, githubToken: "ghu_alice" }, "device:laptop")).rejects.toMatchObject({ code: "unauthorized" });
    expect(await registrationToken({ url: "ws://127.0.0.1:1", relayToken: "t", githubToken: null }, "device:laptop")).toBe("t");
  });

  it("sends the relay token beside a GitHub chat's registration, so the relay links it to the login; a device chat's carries none", async () => {
    const github = await startFakeGitHub();
    cleanups.push(() => github.close());
    const relay = await startRelay({ dataDir: dir("chopin-chat-client-links-"), github: { apiUrl: github.url } });
    cleanups.push(() => relay.close());
    const alice = { url: relay.url, relayToken: relay.users.add("alice").token, githubToken: "ghu_alice" };
    expect(await registerAgentChatAtRelay(alice, chatOf("scout", "github:alice"))).toMatchObject({ created: true, link: { linked: true, user: "alice" } });
    const device = await registerAgentChatAtRelay(alice, chatOf("scout", "device:laptop"));
    expect(device.created).toBe(true);
    expect(device.link).toBeUndefined();
    // Signed in to GitHub without a relay token: registered, nothing to link.
    expect((await registerAgentChatAtRelay({ ...alice, relayToken: null }, chatOf("other", "github:alice"))).link).toBeUndefined();
    // Alice's token already speaks for alice: carol's registration with it is answered, the link refused and said.
    const carol = await registerAgentChatAtRelay({ ...alice, githubToken: "ghu_carol" }, chatOf("scout", "github:carol"));
    expect(carol).toMatchObject({ created: true, link: { linked: false, status: 409, code: "idempotency-conflict" } });
  });
});
