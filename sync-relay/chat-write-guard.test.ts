/**
 * The relay refuses a teammate's changes to someone's agent chat (issue #27), through a real relay with two relay-token
 * users speaking the wire as a modified app would (raw sockets, Automerge's sync protocol by hand, no app services):
 * bob's forged changes to alice's registered chat plan and its conversation, by sync message, by request message and
 * by fast-path batch, never reach the relay's copy, its storage after a restart, or alice; alice's own changes and the
 * Planner's fenced writes still flow, and bob still reads them live; a document not in the table syncs as before.
 * Alice's stars document in the team is hers the same way once she registered a chat, or the stars themselves.
 * The rule on identities (GitHub sign-ins, relay-token users linked to them), and changes the relay already holds (let
 * through: they write nothing), are checked on mayWriteChat, holdsAll and the guard directly; sync-relay/chat-write-guard-links.test.ts drives the links through the relay.
 */
import { next as A } from "@automerge/automerge";
import { generateAutomergeUrl, parseAutomergeUrl, type DocHandle, type DocumentId } from "@automerge/automerge-repo";
import { describe, expect, it } from "vitest";
import { FEATURE_PLANNER_LEASE, LEASE_REQUEST_TYPE, type LeaseStateFrame } from "../shared/lease-wire.js";
import { agentStarsGenesis, agentStarsIdOf } from "../shared/node/agent-stars-identity.js";
import { conversationIdOf } from "../shared/node/conversation-identity.js";
import { FAST_CHANGES_TYPE, FEATURE_FAST_CHANGES, type WireFrame } from "../shared/sync-wire.js";
import { waitFor } from "../shared/wait-for.js";
import { ChatWriteGuard, holdsAll, mayWriteChat } from "./chat-write-guard.js";
import { RELAY_PEER_ID } from "./server.js";
import { useTestRelay } from "./test-relay.js";
import { RawDocSync, type RawClient } from "./test-wire.js";

type Chat = {
  lines: string[];
};

const t = useTestRelay("chopin-chat-guard-", ["alice", "bob"]);

const newId = () => parseAutomergeUrl(generateAutomergeUrl()).documentId;

async function register(token: string, body: { agentId: string; person: string; planId: string }): Promise<number> {
  const response = await fetch(`${t.relay.httpUrl}/v1/agent-chats`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  await response.text();
  return response.status;
}

/** A peer's copy of one document, begun from `seed` (alice's bytes) or empty (bob's, learnt from the relay). */
function copyOf(client: RawClient, peerId: string, documentId: string, seed?: Uint8Array): RawDocSync<Chat> {
  return new RawDocSync<Chat>(client, peerId, RELAY_PEER_ID, documentId, seed ? A.load<Chat>(seed) : A.init<Chat>());
}

const withLine = (doc: A.Doc<Chat>, line: string) => A.change(doc, (d) => void d.lines.push(line));
const lines = (doc: A.Doc<Chat>) => [...(doc.lines ?? [])];

async function relayCopy(documentId: string): Promise<A.Doc<Chat>> {
  return ((await t.relay.repo.find<Chat>(documentId as DocumentId)) as DocHandle<Chat>).doc();
}

/** A sync message carrying `changes`, as a forging client would write it (no sync state needed). */
function syncWithChanges(doc: A.Doc<Chat>, changes: Uint8Array[]): Uint8Array {
  return A.encodeSyncMessage({ heads: A.getHeads(doc), need: [], have: [], changes });
}

/** Alice's chat (plan and conversation) registered at the relay and synced there, and bob reading both. */
async function aliceChatReadByBob() {
  const planId = newId();
  const conversationId = conversationIdOf(planId as DocumentId);
  const alice = await t.joined("alice", "alice:laptop");
  const bob = await t.joined("bob", "bob:desk");
  expect(await register(t.tokens.alice, { agentId: "scout", person: "device:alice-laptop", planId })).toBe(200);
  const docs = [planId, conversationId].map((documentId) => {
    const seed = A.save(A.from<Chat>({ lines: ["hello"] }));
    return { documentId, alice: copyOf(alice, "alice:laptop", documentId, seed), bob: copyOf(bob, "bob:desk", documentId) };
  });
  for (const d of docs) {
    await d.alice.push();
    await d.bob.pull((doc) => lines(doc).includes("hello"), "bob reads alice's chat");
  }
  return { planId, alice, bob, docs };
}

describe("the relay's guard on agent chats", () => {
  it("drops bob's forged changes to alice's chat plan and conversation, while alice's own flow on and bob reads them live, across a restart", async () => {
    const { planId, docs } = await aliceChatReadByBob();
    for (const [i, d] of docs.entries()) {
      // Bob's app writes straight into the document, bypassing every service, and syncs it.
      d.bob.doc = withLine(d.bob.doc, `forged by bob ${i}`);
      const refused = t.relay.chatWrites.refused;
      await d.bob.pull(() => t.relay.chatWrites.refused > refused, "the relay drops bob's write");
      // Alice writes on; bob reads it live (his socket stays, his reads pass), and the relay never took his change.
      d.alice.doc = withLine(d.alice.doc, `second ${i}`);
      await d.alice.push();
      await d.bob.pull((doc) => lines(doc).includes(`second ${i}`), "bob reads alice's next line");
      expect(lines(await relayCopy(d.documentId))).toEqual(["hello", `second ${i}`]);
      expect(lines(d.alice.doc)).toEqual(["hello", `second ${i}`]);
    }
    expect(t.log.filter((line) => line.includes("dropped a write from bob:desk"))).toHaveLength(1);
    expect(t.relay.adapter.droppedWrites).toBeGreaterThanOrEqual(2);

    // Restarted on its data: the guard is loaded from the table, and the stored copies hold none of bob's lines.
    await t.reopen({});
    const alice = await t.joined("alice", "alice:laptop");
    const bob = await t.joined("bob", "bob:desk");
    for (const [i, d] of docs.entries()) {
      const fresh = copyOf(alice, "alice:laptop", d.documentId);
      await fresh.pull((doc) => lines(doc).includes(`second ${i}`), "alice reads her chat from the restarted relay");
      expect(lines(fresh.doc)).toEqual(["hello", `second ${i}`]);
      const again = copyOf(bob, "bob:desk", d.documentId, A.save(d.bob.doc));
      const refused = t.relay.chatWrites.refused;
      await again.pull(() => t.relay.chatWrites.refused > refused, "the restarted relay drops bob's write too");
      expect(lines(await relayCopy(d.documentId))).toEqual(["hello", `second ${i}`]);
    }
    expect(planId).toBe(docs[0]!.documentId);
  });

  it("drops forged changes in a request message and in a fast-path batch, before the fast path forwards them", async () => {
    const { docs } = await aliceChatReadByBob();
    const plan = docs[0]!;
    const forged = withLine(plan.bob.doc, "forged");
    const change = A.getLastLocalChange(forged)!;
    const refused = t.relay.chatWrites.refused;
    // A request that carries changes is a sync message for automerge-repo; it is judged as one.
    const bob = await t.joined("bob", "bob:phone");
    bob.send({ type: "request", senderId: "bob:phone", targetId: RELAY_PEER_ID, documentId: plan.documentId, data: syncWithChanges(forged, [change]) } as WireFrame);
    await waitFor(() => t.relay.chatWrites.refused > refused, "the request is dropped");

    // A fast session that syncs the chat (a sync message without changes passes) sends a batch: nobody gets it.
    const alice = await t.joined("alice", "alice:tablet", { features: [FEATURE_FAST_CHANGES] });
    const aliceCopy = copyOf(alice, "alice:tablet", plan.documentId);
    await aliceCopy.pull((doc) => lines(doc).includes("hello"), "alice's fast session syncs her chat");
    const fastBob = await t.joined("bob", "bob:fast", { features: [FEATURE_FAST_CHANGES] });
    const bobCopy = copyOf(fastBob, "bob:fast", plan.documentId);
    await bobCopy.pull((doc) => lines(doc).includes("hello"), "bob's fast session reads the chat");
    const forwarded = t.relay.fastPath.stats.forwarded;
    const before = t.relay.chatWrites.refused;
    fastBob.send({ type: FAST_CHANGES_TYPE, senderId: "bob:fast", targetId: RELAY_PEER_ID, documentId: plan.documentId, changes: [change] } as WireFrame);
    await waitFor(() => t.relay.chatWrites.refused > before, "the batch is dropped");
    // Alice's own batch on the same path is forwarded and applied, and bob's fast session gets it.
    const mine = withLine(aliceCopy.doc, "mine");
    alice.send({ type: FAST_CHANGES_TYPE, senderId: "alice:tablet", targetId: RELAY_PEER_ID, documentId: plan.documentId, changes: [A.getLastLocalChange(mine)!] } as WireFrame);
    await waitFor(() => fastBob.frames.some((f) => f.type === FAST_CHANGES_TYPE), "bob's fast session gets alice's batch");
    expect(t.relay.fastPath.stats.forwarded).toBe(forwarded + 1);
    await t.relay.fastPath.flush();
    expect(lines(await relayCopy(plan.documentId))).toEqual(["hello", "mine"]);
    expect(fastBob.closed).toBeNull();
    expect(bob.closed).toBeNull();
  });

  it("drops bob's changes to alice's stars in the team once she registered a chat or the stars, and guards no one's stars before", async () => {
    const team = t.relay.teamIndexDocumentId;
    const starsOf = (person: string) => agentStarsIdOf({ scope: { kind: "team", teamIndexId: team }, person });
    const alice = await t.joined("alice", "alice:laptop");
    const bob = await t.joined("bob", "bob:desk");
    const open = (person: string) => {
      const documentId = starsOf(person);
      const genesis = agentStarsGenesis({ scope: { kind: "team", teamIndexId: team }, person });
      return { documentId, alice: copyOf(alice, "alice:laptop", documentId, genesis), bob: copyOf(bob, "bob:desk", documentId, genesis) };
    };
    const star = (doc: A.Doc<Chat>, agent: string) => A.change(doc, (d) => void ((d as unknown as { stars: Record<string, boolean> }).stars[agent] = true));
    const starsIn = (doc: A.Doc<Chat>) => Object.keys((doc as unknown as { stars?: Record<string, boolean> }).stars ?? {}).sort();

    // Carol has no chat: the relay cannot tell who speaks for her, so her stars sync as any document (bob's write lands).
    const carol = open("device:carol-desk");
    carol.bob.doc = star(carol.bob.doc, "by-bob");
    await carol.bob.push();
    await carol.alice.pull((doc) => starsIn(doc).includes("by-bob"), "an unregistered person's stars are not guarded");

    expect(await register(t.tokens.alice, { agentId: "scout", person: "device:alice-laptop", planId: newId() })).toBe(200);
    const mine = open("device:alice-laptop");
    mine.alice.doc = star(mine.alice.doc, "scout");
    await mine.alice.push();
    await mine.bob.pull((doc) => starsIn(doc).includes("scout"), "bob reads alice's stars");
    const refused = t.relay.chatWrites.refused;
    mine.bob.doc = star(mine.bob.doc, "forged");
    await mine.bob.pull(() => t.relay.chatWrites.refused > refused, "the relay drops bob's star");
    mine.alice.doc = star(mine.alice.doc, "planner");
    await mine.alice.push();
    await mine.bob.pull((doc) => starsIn(doc).includes("planner"), "bob still reads alice's next star");
    expect(starsIn(await relayCopy(mine.documentId))).toEqual(["planner", "scout"]);
    // Restarted, the guard is loaded from the table with the stars' owner.
    await t.reopen({});
    const bobAgain = await t.joined("bob", "bob:desk");
    const again = copyOf(bobAgain, "bob:desk", mine.documentId, A.save(mine.bob.doc));
    const before = t.relay.chatWrites.refused;
    await again.pull(() => t.relay.chatWrites.refused > before, "the restarted relay drops bob's star too");
    expect(starsIn(await relayCopy(mine.documentId))).toEqual(["planner", "scout"]);

    // Stars registered on their own (POST /v1/agent-stars, no chat) are guarded at once, as her app registers them.
    const desk = open("device:alice-desk");
    const registered = await fetch(`${t.relay.httpUrl}/v1/agent-stars`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.tokens.alice}`, "content-type": "application/json" },
      body: JSON.stringify({ person: "device:alice-desk" }),
    });
    expect(registered.status).toBe(200);
    await registered.text();
    const aliceDesk = copyOf(await t.joined("alice", "alice:desk"), "alice:desk", desk.documentId, A.save(desk.alice.doc));
    aliceDesk.doc = star(aliceDesk.doc, "scout");
    await aliceDesk.push();
    const bobDesk = copyOf(await t.joined("bob", "bob:laptop"), "bob:laptop", desk.documentId);
    await bobDesk.pull((doc) => starsIn(doc).includes("scout"), "bob reads alice's desk stars");
    const refusedBefore = t.relay.chatWrites.refused;
    bobDesk.doc = star(bobDesk.doc, "forged");
    await bobDesk.pull(() => t.relay.chatWrites.refused > refusedBefore, "the relay drops bob's star in registered stars");
    expect(starsIn(await relayCopy(desk.documentId))).toEqual(["scout"]);
  });

  it("lets the Planner's fenced write into a chat through, and leaves documents not in the table to sync as before", async () => {
    const { planId, docs } = await aliceChatReadByBob();
    const conversation = docs[1]!;
    // The Planner's output comes as a fenced write under the lease (not a sync message): it lands and bob reads it.
    const owner = await t.joined("alice", "alice:runner", { features: [FEATURE_PLANNER_LEASE] });
    const ask = async (requestId: string, request: unknown) => {
      owner.send({ type: LEASE_REQUEST_TYPE, senderId: "alice:runner", targetId: RELAY_PEER_ID, requestId, session: "run", request } as never);
      await waitFor(() => owner.frames.some((f) => (f as { requestId?: string }).requestId === requestId), `answer to ${requestId}`);
      return owner.frames.find((f) => (f as { requestId?: string }).requestId === requestId) as unknown as LeaseStateFrame;
    };
    expect(await ask("claim", { op: "claim", channelId: planId })).toMatchObject({ ok: true, lease: { generation: 1 } });
    const fork = A.clone(conversation.alice.doc, { actor: "00112233445566778899aabbccddeeff" });
    const answered = withLine(fork, "from the Planner");
    const changes = A.getChanges(conversation.alice.doc, answered);
    expect(await ask("write", { op: "fenced-write", channelId: planId, documentId: conversation.documentId, generation: 1, changes })).toMatchObject({ ok: true });
    await conversation.bob.pull((doc) => lines(doc).includes("from the Planner"), "bob reads the Planner's answer");

    // A plan alice made that is no chat: bob's change reaches the relay and alice as before.
    const plainId = newId();
    const alice = await t.joined("alice", "alice:desk");
    const bob = await t.joined("bob", "bob:laptop");
    const aliceCopy = copyOf(alice, "alice:desk", plainId, A.save(A.from<Chat>({ lines: ["plan"] })));
    await aliceCopy.push();
    const bobCopy = copyOf(bob, "bob:laptop", plainId);
    await bobCopy.pull((doc) => lines(doc).includes("plan"), "bob reads alice's plan");
    bobCopy.doc = withLine(bobCopy.doc, "edit by bob");
    await bobCopy.push();
    await aliceCopy.pull((doc) => lines(doc).includes("edit by bob"), "alice gets bob's edit of an ordinary plan");
  });

  it("judges a GitHub chat by login and by the relay-token users linked to it, a device chat by its registrant", () => {
    const github = { person: "github:alice", registeredBy: "gh:alice" };
    expect(mayWriteChat(github, "gh:alice")).toBe(true);
    expect(mayWriteChat(github, "gh:bob")).toBe(false);
    // A relay-token user writes a GitHub chat only once linked to that login (token-links.ts).
    expect(mayWriteChat(github, "alice", "gh:alice")).toBe(true);
    expect(mayWriteChat(github, "alice")).toBe(false);
    expect(mayWriteChat(github, "bob", "gh:bob")).toBe(false);
    expect(mayWriteChat(github, "bob", null)).toBe(false);
    const githubPlan = newId();
    const linked = new ChatWriteGuard([{ ...github, agentId: "scout", planId: githubPlan, registeredAt: 0 }], [{ tokenUser: "alice", githubUser: "gh:alice" }]);
    expect(linked.refusesWrite("alice", githubPlan)).toBe(false);
    expect(linked.refusesWrite("alice-work", githubPlan)).toBe(true);
    linked.noteLink({ tokenUser: "alice-work", githubUser: "gh:alice" });
    expect(linked.refusesWrite("alice-work", githubPlan)).toBe(false);
    expect(linked.refusesWrite("bob", conversationIdOf(githubPlan as DocumentId))).toBe(true);
    expect(linked.refused).toBe(2);
    const device = { person: "device:alice-laptop", registeredBy: "alice" };
    expect(mayWriteChat(device, "alice")).toBe(true);
    expect(mayWriteChat(device, "bob")).toBe(false);
    expect(mayWriteChat(device, "gh:alice")).toBe(false);
    const guard = new ChatWriteGuard([{ ...device, agentId: "scout", planId: newId(), registeredAt: 0 }]);
    expect(guard.refusesWrite("bob", newId())).toBe(false);
    expect(guard.refused).toBe(0);
    // With the team known, each registered person's stars there are theirs too; nobody else's and no other scope's.
    const team = newId();
    const starsOf = (person: string, scope: { kind: "team"; teamIndexId: string } | { kind: "device"; deviceId: string } = { kind: "team", teamIndexId: team }) =>
      agentStarsIdOf({ scope, person });
    const teamGuard = new ChatWriteGuard([{ ...device, agentId: "scout", planId: newId(), registeredAt: 0 }, { ...github, agentId: "scout", planId: githubPlan, registeredAt: 0 }], [], team);
    expect(teamGuard.refusesWrite("alice", starsOf("device:alice-laptop"))).toBe(false);
    expect(teamGuard.refusesWrite("bob", starsOf("device:alice-laptop"))).toBe(true);
    expect(teamGuard.refusesWrite("gh:alice", starsOf("github:alice"))).toBe(false);
    expect(teamGuard.refusesWrite("gh:bob", starsOf("github:alice"))).toBe(true);
    expect(teamGuard.refusesWrite("bob", starsOf("device:carol-desk"))).toBe(false);
    expect(teamGuard.refusesWrite("bob", starsOf("device:alice-laptop", { kind: "device", deviceId: "alice-laptop" }))).toBe(false);
    expect(guard.refusesWrite("bob", starsOf("device:alice-laptop"))).toBe(false);
    // Stars registered on their own are loaded at start, as the relay loads its table.
    const loaded = new ChatWriteGuard([], [], team, [{ person: "device:alice-desk", documentId: starsOf("device:alice-desk"), registeredBy: "alice", registeredAt: 0 }]);
    expect(loaded.refusesWrite("alice", starsOf("device:alice-desk"))).toBe(false);
    expect(loaded.refusesWrite("bob", starsOf("device:alice-desk"))).toBe(true);
  });

  it("lets through a teammate's message whose every change the relay already holds (an app offering back what it received), never one that adds a change", () => {
    const planId = newId();
    const guard = new ChatWriteGuard([{ person: "device:alice-laptop", registeredBy: "alice", agentId: "scout", planId, registeredAt: 0 }]);
    const relayDoc = A.from<Chat>({ lines: ["hello"] });
    const held = A.getAllChanges(relayDoc);
    const forged = A.getLastLocalChange(withLine(A.clone(relayDoc), "forged by bob"))!;
    expect(holdsAll(relayDoc, held)).toBe(true);
    expect(holdsAll(relayDoc, [...held, forged])).toBe(false);
    expect(holdsAll(undefined, held)).toBe(false);
    expect(holdsAll(relayDoc, [new Uint8Array([1, 2, 3])])).toBe(false);
    expect(guard.refusesWrite("bob", planId, () => holdsAll(relayDoc, held))).toBe(false);
    expect(guard.refusesWrite("bob", planId, () => holdsAll(relayDoc, [...held, forged]))).toBe(true);
    expect(guard.refused).toBe(1);
    // Asked only of a user who may not write: the person's own writes never cost a decode.
    let asked = false;
    expect(guard.refusesWrite("alice", planId, () => (asked = true))).toBe(false);
    expect(asked).toBe(false);
  });
});
