/**
 * The relay's guard on a GitHub chat with relay-token links (chat-write-guard.ts, token-links.ts), through a real relay
 * with GitHub admission and raw wire clients: alice registers her "github:alice" chat with her GitHub sign-in and her
 * relay token beside it, so her relay-token sockets (the handle "alice") write into it; bob, on his own relay token and
 * linked to no one, forges changes into it and they are dropped; a second login for alice's token is refused 409 and
 * a token the relay does not know 401, each with the registration still answered; a restarted relay reloads the
 * links. Fails with the old rule (any relay-token user writes a GitHub chat) and without the link. The fake GitHub
 * runs as a child process (sync-relay/ imports only shared/, as relay-github.test.ts).
 */
import { next as A } from "@automerge/automerge";
import { generateAutomergeUrl, parseAutomergeUrl, type DocHandle, type DocumentId } from "@automerge/automerge-repo";
import { describe, expect, it } from "vitest";
import { AGENT_CHATS_PATH, RELAY_TOKEN_LINK_HEADER } from "../shared/agent-chat-wire.js";
import { conversationIdOf } from "../shared/node/conversation-identity.js";
import { RELAY_PEER_ID } from "./server.js";
import { useFakeGitHubProcess } from "./test-fake-github.js";
import { useTestRelay } from "./test-relay.js";
import { RawDocSync, type RawClient } from "./test-wire.js";

type Chat = { lines: string[] };

const t = useTestRelay("chopin-chat-links-", ["alice", "bob"]);
const fake = useFakeGitHubProcess();

const newId = () => parseAutomergeUrl(generateAutomergeUrl()).documentId;

async function withGitHub(): Promise<{ github: { apiUrl: string } }> {
  const options = { github: { apiUrl: fake.url() } };
  await t.restart(options);
  return options;
}

async function register(bearer: string, body: { agentId: string; person: string; planId: string }, linkToken?: string) {
  const response = await fetch(`${t.relay.httpUrl}${AGENT_CHATS_PATH}`, {
    method: "POST",
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json", ...(linkToken === undefined ? {} : { [RELAY_TOKEN_LINK_HEADER]: linkToken }) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const copyOf = (client: RawClient, peerId: string, documentId: string, seed?: Uint8Array) =>
  new RawDocSync<Chat>(client, peerId, RELAY_PEER_ID, documentId, seed ? A.load<Chat>(seed) : A.init<Chat>());
const withLine = (doc: A.Doc<Chat>, line: string) => A.change(doc, (d) => void d.lines.push(line));
const lines = (doc: A.Doc<Chat>) => [...(doc.lines ?? [])];
const relayLines = async (documentId: string) => lines(((await t.relay.repo.find<Chat>(documentId as DocumentId)) as DocHandle<Chat>).doc());

describe("the relay's guard on a GitHub chat, with relay tokens linked to the login", () => {
  it("lets alice's linked relay token write her GitHub chat and drops bob's unlinked one, across a restart", async () => {
    const options = await withGitHub();
    const planId = newId();
    const registered = await register("ghu_alice", { agentId: "scout", person: "github:alice", planId }, t.tokens.alice);
    expect(registered).toMatchObject({ status: 200, body: { created: true, chat: { registeredBy: "gh:alice" }, link: { linked: true, user: "alice" } } });
    expect(t.relay.chatWrites.guards(planId)).toBe(true);

    const alice = await t.joined("alice", "alice:laptop");
    const bob = await t.joined("bob", "bob:desk");
    const docs = [planId, conversationIdOf(planId as DocumentId)].map((documentId) => ({
      documentId,
      alice: copyOf(alice, "alice:laptop", documentId, A.save(A.from<Chat>({ lines: ["hello"] }))),
      bob: copyOf(bob, "bob:desk", documentId),
    }));
    for (const [i, d] of docs.entries()) {
      // Alice's relay-token socket writes her chat (the relay took her changes: its copy holds them).
      await d.alice.push();
      await d.bob.pull((doc) => lines(doc).includes("hello"), "bob reads alice's chat");
      // Bob, a relay-token user linked to no login, forges a line: dropped, and bob still reads her next one live.
      d.bob.doc = withLine(d.bob.doc, `forged by bob ${i}`);
      const refused = t.relay.chatWrites.refused;
      await d.bob.pull(() => t.relay.chatWrites.refused > refused, "the relay drops bob's write");
      d.alice.doc = withLine(d.alice.doc, `second ${i}`);
      await d.alice.push();
      await d.bob.pull((doc) => lines(doc).includes(`second ${i}`), "bob reads alice's next line");
      expect(await relayLines(d.documentId)).toEqual(["hello", `second ${i}`]);
    }

    // Restarted on its data: the links are loaded with the chats, so alice's token still writes and bob's still not.
    await t.reopen(options);
    const aliceAgain = await t.joined("alice", "alice:laptop");
    const bobAgain = await t.joined("bob", "bob:desk");
    for (const [i, d] of docs.entries()) {
      const mine = copyOf(aliceAgain, "alice:laptop", d.documentId, A.save(withLine(d.alice.doc, `after restart ${i}`)));
      await mine.push();
      expect(await relayLines(d.documentId)).toEqual(["hello", `second ${i}`, `after restart ${i}`]);
      const forged = copyOf(bobAgain, "bob:desk", d.documentId, A.save(d.bob.doc));
      const refused = t.relay.chatWrites.refused;
      await forged.pull(() => t.relay.chatWrites.refused > refused, "the restarted relay drops bob's write");
      expect(await relayLines(d.documentId)).toEqual(["hello", `second ${i}`, `after restart ${i}`]);
    }
  });

  it("refuses a second login for one relay token (409) and a token it does not know (401), answering each registration as before", async () => {
    await withGitHub();
    const first = await register("ghu_alice", { agentId: "scout", person: "github:alice", planId: newId() }, t.tokens.alice);
    expect(first.body.link).toEqual({ linked: true, user: "alice" });
    // The same link again (another chat of alice's, or a registration repeated at start) is answered as linked.
    const again = await register("ghu_alice", { agentId: "other", person: "github:alice", planId: newId() }, t.tokens.alice);
    expect(again).toMatchObject({ status: 200, body: { created: true, link: { linked: true, user: "alice" } } });

    // Carol, signed in to GitHub, presents alice's relay token: carol's chat is registered, the link refused.
    const carolPlan = newId();
    const carol = await register("ghu_carol", { agentId: "scout", person: "github:carol", planId: carolPlan }, t.tokens.alice);
    expect(carol).toMatchObject({ status: 200, body: { created: true, chat: { planId: carolPlan }, link: { linked: false, status: 409, code: "idempotency-conflict" } } });
    expect(String((carol.body.link as { message: string }).message)).toMatch(/another GitHub sign-in/);

    // A token the relay does not know (or repeated headers, or one beside a device chat): typed, the relay serves on.
    const unknown = await register("ghu_bob", { agentId: "scout", person: "github:bob", planId: newId() }, "not-a-relay-token");
    expect(unknown).toMatchObject({ status: 200, body: { created: true, link: { linked: false, status: 401, code: "unauthorized" } } });
    const device = await register(t.tokens.bob, { agentId: "scout", person: "device:bob-desk", planId: newId() }, t.tokens.bob);
    expect(device).toMatchObject({ status: 200, body: { created: true, link: { linked: false, status: 400, code: "invalid-input" } } });
    // A GitHub part that fails is refused as before, whatever the relay token.
    const forged = await register("ghu_bob", { agentId: "scout", person: "github:alice", planId: newId() }, t.tokens.bob);
    expect(forged).toMatchObject({ status: 403, body: { code: "forbidden" } });

    // Bob's token, never linked (the 401 above linked nothing), still cannot write carol's chat; alice's token
    // speaks for alice only, so it cannot write carol's either.
    const plan = carolPlan;
    const bob = await t.joined("bob", "bob:desk");
    const aliceSocket = await t.joined("alice", "alice:laptop");
    for (const [client, peer] of [
      [bob, "bob:desk"],
      [aliceSocket, "alice:laptop"],
    ] as const) {
      const refused = t.relay.chatWrites.refused;
      const copy = copyOf(client, peer, plan, A.save(A.from<Chat>({ lines: [`by ${peer}`] })));
      await copy.pull(() => t.relay.chatWrites.refused > refused, `the relay drops ${peer}'s write into carol's chat`);
    }
    const health = await fetch(`${t.relay.httpUrl}/healthz`);
    expect(health.status).toBe(200);
  });
});
