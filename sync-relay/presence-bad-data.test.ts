/**
 * Presence whose payload is not CBOR, through a real relay on 127.0.0.1 and raw sockets (the audit's flood): the
 * socket is closed 1007 at the first such frame, the relay's Repo never sees it, and the relay logs one line for it
 * (before, every frame logged a multi-line decode stack from inside automerge-repo and the socket stayed open).
 */
import { next as A } from "@automerge/automerge";
import { generateAutomergeUrl, parseAutomergeUrl, type DocumentId } from "@automerge/automerge-repo";
import { encode } from "cbor-x";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CLOSE_CODES, type WireFrame } from "../shared/sync-wire.js";
import { RELAY_PEER_ID } from "./server.js";
import { useTestRelay } from "./test-relay.js";
import { waitFor } from "../shared/wait-for.js";

const t = useTestRelay("chopin-relay-presence-bad-", ["alice", "bob", "carol"]);
const { joined, log } = t;

afterEach(() => {
  vi.restoreAllMocks();
});

function presence(senderId: string, documentId: DocumentId, data: Uint8Array, count: number): WireFrame {
  return { type: "ephemeral", senderId, targetId: RELAY_PEER_ID, documentId, data, count, sessionId: "s" } as WireFrame;
}

describe("presence with a payload that is not CBOR", () => {
  it("closes the socket 1007 at the first frame, keeps it from the Repo, and logs one line for it", async () => {
    const consoleLog = vi.spyOn(console, "log");
    const carol = await joined("carol", "carol:desk");
    const { documentId } = t.relay.repo.create({ items: [] });
    const [, request] = A.generateSyncMessage(A.init(), A.initSyncState());
    carol.send({ type: "request", senderId: "carol:desk", targetId: RELAY_PEER_ID, documentId, data: request! } as WireFrame);
    await waitFor(() => carol.frames.some((f) => f.type === "sync"), "carol syncs the document");
    const repoSaw: string[] = [];
    t.relay.adapter.on("message", (message) => void (message.type === "ephemeral" && repoSaw.push(message.senderId)));

    const alice = await joined("alice", "alice:laptop");
    const linesBefore = log.length;
    for (let i = 0; i < 1000; i++) alice.send(presence("alice:laptop", documentId, new Uint8Array([0xff, 0xff]), i + 1));
    await waitFor(() => alice.closed !== null, "alice's socket closed");
    expect(alice.closed).toEqual({ code: CLOSE_CODES.malformed, reason: "ephemeral message data is not CBOR" });
    expect(repoSaw).toEqual([]);

    // Presence that decodes still crosses the relay; by then anything of alice's that reached the Repo would have too.
    const bob = await joined("bob", "bob:desk");
    bob.send(presence("bob:desk", documentId, encode({ caret: 3 }), 1));
    await waitFor(() => carol.frames.some((f) => f.type === "ephemeral" && f.senderId === "bob:desk"), "carol sees bob's presence");
    expect(repoSaw).toEqual([expect.stringMatching(/^bob:desk#s\d+$/)]);
    const aliceLines = log.slice(linesBefore).filter((line) => line.includes("alice"));
    expect(aliceLines).toEqual([expect.stringMatching(/^left: alice as peer alice:laptop .*\(1007 ephemeral message data is not CBOR\)$/)]);
    expect(consoleLog.mock.calls.filter(([first]) => String(first).includes("error receiving message"))).toEqual([]);
  });
});

describe("presence for documents the relay does not hold", () => {
  it("is dropped before the Repo makes a handle for it; presence for a held document still crosses", async () => {
    const alice = await joined("alice", "alice:laptop");
    const handlesBefore = Object.keys(t.relay.repo.handles).length;
    const strangers = Array.from({ length: 200 }, () => parseAutomergeUrl(generateAutomergeUrl()).documentId);
    strangers.forEach((id, i) => alice.send(presence("alice:laptop", id, encode({ caret: i }), i + 1)));
    await waitFor(() => t.relay.adapter.droppedEphemeral === strangers.length, "every stranger's presence dropped");
    expect(Object.keys(t.relay.repo.handles).length).toBe(handlesBefore);
    expect(alice.closed).toBeNull();

    const carol = await joined("carol", "carol:desk");
    const { documentId } = t.relay.repo.create({ items: [] });
    const [, request] = A.generateSyncMessage(A.init(), A.initSyncState());
    carol.send({ type: "request", senderId: "carol:desk", targetId: RELAY_PEER_ID, documentId, data: request! } as WireFrame);
    await waitFor(() => carol.frames.some((f) => f.type === "sync"), "carol syncs the document");
    alice.send(presence("alice:laptop", documentId, encode({ caret: 1 }), strangers.length + 1));
    await waitFor(() => carol.frames.some((f) => f.type === "ephemeral" && f.senderId === "alice:laptop"), "carol sees alice's presence");
  });
});

