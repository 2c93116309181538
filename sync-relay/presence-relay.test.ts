/**
 * Presence (ephemeral messages) relayed under another sender id, through a real relay on 127.0.0.1 and raw sockets:
 * a core may relay its windows' presence (random "peer-..." ids, or ids namespaced under its own peer id or user),
 * but never under an id that belongs to someone else (a window id stays its core's after that core's socket closes,
 * see presence-ownership.test.ts); echoes of other members' presence are dropped quietly.
 */
import { next as A } from "@automerge/automerge";
import type { DocumentId } from "@automerge/automerge-repo";
import { encode } from "cbor-x";
import { describe, expect, it } from "vitest";
import type { WireFrame } from "../shared/sync-wire.js";
import { RELAY_MAX_GOODBYES_PER_CONNECTION } from "./limits.js";
import { PRESENCE_GOODBYE } from "../shared/presence-goodbye.js";
import { RELAY_PEER_ID } from "./server.js";
import { type RawClient } from "./test-wire.js";
import { useTestRelay } from "./test-relay.js";
import { waitFor } from "../shared/wait-for.js";

const t = useTestRelay("chopin-relay-presence-", ["alice", "bob", "carol"]);
const { joined, log } = t;

let count = 0;
function presence(from: string, senderId: string, documentId: DocumentId, value: unknown): WireFrame {
  return {
    type: "ephemeral",
    senderId,
    targetId: RELAY_PEER_ID,
    documentId,
    data: encode(value),
    count: ++count,
    sessionId: `session-of-${from}-as-${senderId}`,
  } as WireFrame;
}

/** A document on the relay with `reader` among its peers, so the relay forwards its presence to `reader`. */
async function watchedDocument(reader: RawClient, readerPeerId: string): Promise<DocumentId> {
  const { documentId } = t.relay.repo.create({ items: [] });
  const [, message] = A.generateSyncMessage(A.init(), A.initSyncState());
  reader.send({ type: "request", senderId: readerPeerId, targetId: RELAY_PEER_ID, documentId, data: message! } as WireFrame);
  await waitFor(() => reader.frames.some((f) => f.type === "sync" && (f as { documentId?: string }).documentId === documentId), "the reader syncs it");
  return documentId;
}

const ephemeralSenders = (c: RawClient) => c.frames.filter((f) => f.type === "ephemeral").map((f) => f.senderId);

describe("relayed presence sender ids", () => {
  it("forwards a window's presence but drops, with one logged reason, presence under another user's peer ids", async () => {
    // Bob's plain device id becomes his (bound at join), then he goes offline with it.
    const bobPlain = await joined("bob", "device-bob");
    bobPlain.ws.close();
    await waitFor(() => t.relay.connections() === 0, "bob's plain device left");
    const bob = await joined("bob", "bob:desk");
    const carol = await joined("carol", "carol:desk");
    const alice = await joined("alice", "alice:laptop");
    const documentId = await watchedDocument(carol, "carol:desk");

    // The audit's forgery: another user's namespaced id that is not joined right now.
    alice.send(presence("alice", "bob:laptop", documentId, { user: { name: "Bob" } }));
    // A plain id bound to bob, not joined right now.
    alice.send(presence("alice", "device-bob", documentId, { user: { name: "Bob" } }));
    // An echo of a joined member's presence (every core re-broadcasts what it receives): dropped, nothing logged.
    alice.send(presence("alice", "bob:desk", documentId, { user: { name: "Bob" } }));
    // What the app really sends: its windows' random Repo ids, and ids namespaced under its peer id or handle.
    for (const window of ["peer-1x2y3z4", "alice:laptop/window-2", "alice:phone-window"]) {
      alice.send(presence("alice", window, documentId, { user: { name: "Alice" } }));
    }
    await waitFor(() => ephemeralSenders(carol).length >= 3, "carol sees alice's windows");
    expect(ephemeralSenders(carol).sort()).toEqual(["alice:laptop/window-2", "alice:phone-window", "peer-1x2y3z4"]);
    // Frames from one socket are handled in order, so the dropped ones came before and never reached carol.
    expect(alice.closed).toBeNull();
    const refusals = log.filter((line) => line.startsWith("dropped presence"));
    expect(refusals).toEqual([
      expect.stringMatching(/^dropped presence from alice:laptop#s\d+: presence sender "bob:laptop" does not belong to peer "alice:laptop" of user "alice"$/),
    ]);

    // A window id alice relays is hers while her socket is open: bob's core echoing it is dropped.
    bob.send(presence("bob", "peer-1x2y3z4", documentId, { user: { name: "Mallory" } }));
    bob.send(presence("bob", "bob:desk/window", documentId, { user: { name: "Bob" } }));
    await waitFor(() => ephemeralSenders(carol).includes("bob:desk/window"), "carol sees bob's window");
    expect(ephemeralSenders(carol).filter((s) => s === "peer-1x2y3z4")).toHaveLength(1);
    expect(bob.closed).toBeNull();

    // And after alice's socket is gone: the id stays her core's, so bob's core still cannot speak for it.
    const open = t.relay.connections();
    alice.ws.close();
    await waitFor(() => t.relay.connections() === open - 1, "alice's core left");
    bob.send(presence("bob", "peer-1x2y3z4", documentId, { user: { name: "Mallory" } }));
    bob.send(presence("bob", "bob:desk/window-2", documentId, { user: { name: "Bob" } }));
    await waitFor(() => ephemeralSenders(carol).includes("bob:desk/window-2"), "carol sees bob's second window");
    expect(ephemeralSenders(carol).filter((s) => s === "peer-1x2y3z4")).toHaveLength(1);
  });

  it("judges '<handle>:<device>' senders by the handle before the last ':', not by prefix", async () => {
    t.tokens.gh = t.relay.users.add("gh").token;
    const carol = await joined("carol", "carol:desk");
    const gh = await joined("gh", "gh:box");
    const documentId = await watchedDocument(carol, "carol:desk");
    // A relay user named "gh" is not the GitHub user behind "gh:alice:<device>".
    gh.send(presence("gh", "gh:alice:laptop", documentId, { user: { name: "Alice" } }));
    gh.send(presence("gh", "gh:tablet", documentId, { user: { name: "gh" } }));
    await waitFor(() => ephemeralSenders(carol).length >= 1, "carol sees gh's own device");
    expect(ephemeralSenders(carol)).toEqual(["gh:tablet"]);
    expect(log.filter((line) => line.startsWith("dropped presence"))).toEqual([
      expect.stringMatching(/presence sender "gh:alice:laptop" does not belong to peer "gh:box" of user "gh"$/),
    ]);
  });

  it("drops presence under a relay session id form, and stays up", async () => {
    const carol = await joined("carol", "carol:desk");
    const alice = await joined("alice", "alice:laptop");
    const documentId = await watchedDocument(carol, "carol:desk");
    alice.send(presence("alice", "carol:desk#s1", documentId, {}));
    alice.send(presence("alice", "alice:laptop#s1>peer-x", documentId, {}));
    alice.send(presence("alice", "alice:laptop/ok", documentId, {}));
    await waitFor(() => ephemeralSenders(carol).length >= 1, "carol sees the allowed one");
    expect(ephemeralSenders(carol)).toEqual(["alice:laptop/ok"]);
    expect(log.filter((line) => line.startsWith("dropped presence"))).toEqual([expect.stringMatching(/form of a relay session id/)]);
    expect(alice.closed).toBeNull();
  });

  it("keeps a refusal on one log line whatever control characters the peer id and sender carry", async () => {
    const carol = await joined("carol", "carol:desk");
    const alice = await joined("alice", "alice:x\nrelay stopped");
    const documentId = await watchedDocument(carol, "carol:desk");
    alice.send(presence("alice", "bob:laptop\ncut 1 revoked connection(s) of bob", documentId, {}));
    await waitFor(() => log.some((line) => line.startsWith("dropped presence")), "the refusal is logged");
    const refusal = log.find((line) => line.startsWith("dropped presence"))!;
    expect(refusal).not.toMatch(/[\u0000-\u001f]/);
    expect(refusal).toMatch(/^dropped presence from alice:x\?relay stopped#s\d+: presence sender "bob:laptop\?cut 1 revoked/);
  });

  it("says goodbye, in each window's name and on each document, for a member it cuts off", async () => {
    const carol = await joined("carol", "carol:desk");
    const alice = await joined("alice", "alice:laptop");
    const plan = await watchedDocument(carol, "carol:desk");
    const notes = await watchedDocument(carol, "carol:desk");
    alice.send(presence("alice", "peer-window-1", plan, { user: { name: "Alice" } }));
    alice.send(presence("alice", "peer-window-2", notes, { user: { name: "Alice" } }));
    await waitFor(() => ephemeralSenders(carol).length >= 2, "carol sees alice's windows");

    expect(t.relay.users.revoke("alice")).toBe(true);
    expect(t.relay.pollUsers()).toBe(1);
    const goodbyes = () =>
      carol.frames
        .filter((f) => f.type === "ephemeral" && equalBytes((f as { data: Uint8Array }).data, PRESENCE_GOODBYE))
        .map((f) => `${(f as { documentId: string }).documentId}/${f.senderId}`);
    await waitFor(() => goodbyes().length >= 2, "carol hears alice's windows leave");
    expect(goodbyes().sort()).toEqual([`${notes}/peer-window-2`, `${plan}/peer-window-1`].sort());
    await waitFor(() => alice.closed !== null, "alice cut");
    expect(carol.closed).toBeNull();
  });

  it("remembers at most RELAY_MAX_GOODBYES_PER_CONNECTION pairs per connection, the most recently used", async () => {
    await t.restart({ maxGoodbyesPerConnection: 2 });
    const carol = await joined("carol", "carol:desk");
    const alice = await joined("alice", "alice:laptop");
    const plan = await watchedDocument(carol, "carol:desk");
    for (const window of ["peer-a", "peer-b", "peer-c", "peer-a"]) alice.send(presence("alice", window, plan, {}));
    await waitFor(() => ephemeralSenders(carol).length >= 4, "carol sees every frame");
    t.relay.users.revoke("alice");
    t.relay.pollUsers();
    await waitFor(() => alice.closed !== null, "alice cut");
    const goodbyeSenders = () => carol.frames.filter((f) => f.type === "ephemeral" && equalBytes((f as { data: Uint8Array }).data, PRESENCE_GOODBYE)).map((f) => f.senderId);
    await waitFor(() => goodbyeSenders().length >= 2, "two goodbyes");
    // peer-b was the least recently used when peer-a came again: it is the one forgotten.
    expect(goodbyeSenders().sort()).toEqual(["peer-a", "peer-c"]);
    expect(RELAY_MAX_GOODBYES_PER_CONNECTION).toBeGreaterThan(2);
  });
});

function equalBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && a.length === b.length && a.every((byte, i) => byte === b[i]);
}
