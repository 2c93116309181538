/**
 * The relay half of the change fast path over the raw wire: the feature is agreed only when the client asks; a batch
 * is applied, then forwarded to exactly the sessions that asked for the feature, have the document open and pass
 * access(); bad batches close the sender with a reason while the relay keeps serving.
 */
import { join } from "node:path";
import { next as A } from "@automerge/automerge";
import { generateAutomergeUrl, parseAutomergeUrl, type DocumentId } from "@automerge/automerge-repo";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FAST_PATH_MAX_BYTES, FAST_PATH_SYNC_INTERVAL_MS } from "../shared/limits.js";
import { syncPacing } from "../shared/sync-pacing.js";
import { CLOSE_CODES, FAST_CHANGES_TYPE, FEATURE_FAST_CHANGES, type WireFrame } from "../shared/sync-wire.js";
import { RELAY_PEER_ID, startRelay, type RunningRelay } from "./server.js";
import { rawClient, tempDir, type RawClient } from "./test-wire.js";
import { waitFor } from "../shared/wait-for.js";

interface Notes {
  items: string[];
}

let dir: ReturnType<typeof tempDir>;
let relay: RunningRelay;
let blocked: string | null = null;
const sockets: RawClient[] = [];
const tokens = new Map<string, string>();

async function joined(user: string, device: string, fast: boolean): Promise<{ client: RawClient; peerId: string; peer: WireFrame }> {
  let token = tokens.get(user);
  if (token === undefined) tokens.set(user, (token = relay.users.add(user).token));
  const client = rawClient(relay.url, token);
  sockets.push(client);
  const peerId = `${user}:${device}`;
  const peer = await client.join(peerId, fast ? { features: [FEATURE_FAST_CHANGES] } : {});
  return { client, peerId, peer };
}

function requestFrame(senderId: string, documentId: string): WireFrame {
  const [, message] = A.generateSyncMessage(A.init(), A.initSyncState());
  return { type: "request", senderId, targetId: RELAY_PEER_ID, documentId, data: message! };
}

function changesFrame(senderId: string, documentId: string, data: Uint8Array): WireFrame {
  return { type: FAST_CHANGES_TYPE, senderId, targetId: RELAY_PEER_ID, documentId, changes: [data] };
}

const changesFor = (c: RawClient, documentId: string) =>
  c.frames.filter((f) => f.type === FAST_CHANGES_TYPE && (f as { documentId?: string }).documentId === documentId);

/** Everything the relay sent `c` before answering this probe request has arrived once the answer has. */
async function drained(c: RawClient, peerId: string): Promise<void> {
  const before = c.frames.length;
  const probe = relay.repo.create<Notes>({ items: [] }).documentId;
  c.send(requestFrame(peerId, probe));
  await waitFor(() => c.frames.slice(before).some((f) => (f as { documentId?: string }).documentId === probe), "probe answered");
}

/** A document on the relay and one fresh change to it (as a client would have made it). */
function docWithChange(): { documentId: DocumentId; change: Uint8Array } {
  const handle = relay.repo.create<Notes>({ items: [] });
  const next = A.change(A.clone(handle.doc()), (d) => void d.items.push("fast"));
  return { documentId: handle.documentId, change: A.getLastLocalChange(next)! };
}

beforeEach(async () => {
  dir = tempDir("chopin-relay-fast-");
  blocked = null;
  tokens.clear();
  relay = await startRelay({
    dataDir: join(dir.path, "relay"),
    access: (user, documentId) => !(user === "bob" && documentId === blocked),
  });
});

afterEach(async () => {
  for (const s of sockets.splice(0)) s.ws.terminate();
  await relay.close();
  dir.remove();
});

describe("relay change fast path", () => {
  it("agrees to the feature only when the join asks for it", async () => {
    const fast = await joined("alice", "laptop", true);
    const plain = await joined("alice", "phone", false);
    expect(fast.peer).toMatchObject({ features: [FEATURE_FAST_CHANGES] });
    expect((plain.peer as { features?: unknown }).features).toBeUndefined();
  });

  it("forwards a batch only to sessions with the feature, the document open and access, and applies it", async () => {
    const { documentId, change } = docWithChange();
    blocked = documentId;
    const writer = await joined("alice", "laptop", true);
    const reader = await joined("carol", "desktop", true);
    const denied = await joined("bob", "desktop", true);
    const plain = await joined("dave", "desktop", false);
    const bystander = await joined("erin", "desktop", true);
    for (const r of [writer, reader, denied, plain]) r.client.send(requestFrame(r.peerId, documentId));
    await waitFor(() => [writer, reader, denied, plain].every((r) => r.client.frames.some((f) => (f as { documentId?: string }).documentId === documentId)), "requests answered");

    writer.client.send(changesFrame(writer.peerId, documentId, change));
    await waitFor(() => changesFor(reader.client, documentId).length === 1, "carol gets the batch");
    const forwarded = changesFor(reader.client, documentId)[0] as unknown as { changes: Uint8Array[] };
    expect(forwarded.changes.map((c) => new Uint8Array(c))).toEqual([change]);
    await waitFor(() => relay.repo.handles[documentId].doc().items.length === 1, "the relay's copy has it");
    expect(relay.repo.handles[documentId].doc().items).toEqual(["fast"]);
    for (const r of [denied, plain, bystander, writer]) {
      await drained(r.client, r.peerId);
      expect(changesFor(r.client, documentId)).toEqual([]);
    }
    // The same batch again (a resend) is already in the relay's copy, so it is not forwarded again.
    writer.client.send(changesFrame(writer.peerId, documentId, change));
    await drained(writer.client, writer.peerId);
    await drained(reader.client, reader.peerId);
    expect(changesFor(reader.client, documentId)).toHaveLength(1);
    expect(writer.client.closed).toBeNull();
  });

  it("brings the relay's copy up to date before it takes in a fast session's sync message for the document", async () => {
    const { documentId } = docWithChange();
    const writer = await joined("alice", "laptop", true);
    writer.client.send(requestFrame(writer.peerId, documentId));
    await waitFor(() => writer.client.frames.some((f) => (f as { documentId?: string }).documentId === documentId), "request answered");
    const mine = A.change(A.clone(relay.repo.handles[documentId].doc()), (d) => void d.items.push("typed"));
    writer.client.send(changesFrame(writer.peerId, documentId, A.getLastLocalChange(mine)!));
    const [, message] = A.generateSyncMessage(mine, A.initSyncState());
    writer.client.send({ type: "sync", senderId: writer.peerId, targetId: RELAY_PEER_ID, documentId, data: message! });
    // Answered long before RELAY_APPLY_INTERVAL_MS: only the sync message can have made the copy apply the batch.
    await drained(writer.client, writer.peerId);
    expect(relay.repo.handles[documentId].doc().items).toEqual(["typed"]);
  });

  it("forwards a change the relay gains any other way (a client's sync protocol) to fast sessions at once", async () => {
    const { documentId } = docWithChange();
    const reader = await joined("carol", "desktop", true);
    reader.client.send(requestFrame(reader.peerId, documentId));
    await waitFor(() => reader.client.frames.some((f) => (f as { documentId?: string }).documentId === documentId), "request answered");
    relay.repo.handles[documentId].change((d) => void d.items.push("by sync"));
    await waitFor(() => changesFor(reader.client, documentId).length === 1, "carol gets the change on the fast path");
    const forwarded = changesFor(reader.client, documentId)[0] as unknown as { changes: Uint8Array[] };
    expect(A.decodeChange(new Uint8Array(forwarded.changes[0])).hash).toBe(A.getHeads(relay.repo.handles[documentId].doc())[0]);
  });

  it("runs a sync round at once instead when a change is above FAST_PATH_MAX_BYTES, and paces fast sessions only", async () => {
    const { documentId } = docWithChange();
    const reader = await joined("carol", "desktop", true);
    const plain = await joined("dave", "desktop", false);
    const [session] = [...relay.adapter.fastSessions()];
    expect(syncPacing().intervalFor(RELAY_PEER_ID, session)).toBe(FAST_PATH_SYNC_INTERVAL_MS);
    expect(session.startsWith(reader.peerId)).toBe(true);
    reader.client.send(requestFrame(reader.peerId, documentId));
    plain.client.send(requestFrame(plain.peerId, documentId));
    await waitFor(() => reader.client.frames.some((f) => (f as { documentId?: string }).documentId === documentId), "request answered");
    const syncs = () => reader.client.frames.filter((f) => f.type === "sync" && (f as { documentId?: string }).documentId === documentId).length;
    const before = syncs();
    relay.repo.handles[documentId].change((d) => void d.items.push("x".repeat(FAST_PATH_MAX_BYTES + 1)));
    await waitFor(() => syncs() > before, "a sync round carries the big change");
    expect(relay.fastPath.stats.syncRounds).toBe(1);
    expect(changesFor(reader.client, documentId)).toEqual([]);
    reader.client.ws.close();
    await waitFor(() => syncPacing().intervalFor(RELAY_PEER_ID, session) === undefined, "pace cleared when the session leaves");
  });

  it("drops a batch from a user without access to the document", async () => {
    const { documentId, change } = docWithChange();
    blocked = documentId;
    const denied = await joined("bob", "laptop", true);
    const reader = await joined("carol", "desktop", true);
    reader.client.send(requestFrame(reader.peerId, documentId));
    denied.client.send(changesFrame(denied.peerId, documentId, change));
    await drained(denied.client, denied.peerId);
    await drained(reader.client, reader.peerId);
    expect(relay.repo.handles[documentId].doc().items).toEqual([]);
    expect(changesFor(reader.client, documentId)).toEqual([]);
  });

  it("drops a batch for a document the sender never asked about on this connection: nothing forwarded, no handle made", async () => {
    const { documentId, change } = docWithChange();
    const writer = await joined("alice", "laptop", true);
    const reader = await joined("carol", "desktop", true);
    reader.client.send(requestFrame(reader.peerId, documentId));
    await waitFor(() => reader.client.frames.some((f) => (f as { documentId?: string }).documentId === documentId), "request answered");
    const handlesBefore = Object.keys(relay.repo.handles).length;
    const dropsBefore = relay.fastPath.stats.dropped;
    // Random ids (the audit's flood: each one made the relay look a document up and keep its handle) and a known one.
    const strangers = Array.from({ length: 50 }, () => parseAutomergeUrl(generateAutomergeUrl()).documentId);
    for (const id of [...strangers, documentId]) writer.client.send(changesFrame(writer.peerId, id, change));
    await waitFor(() => relay.fastPath.stats.dropped - dropsBefore === strangers.length + 1, "every batch dropped");
    await drained(reader.client, reader.peerId);
    expect(changesFor(reader.client, documentId)).toEqual([]);
    expect(Object.keys(relay.repo.handles).length).toBe(handlesBefore + 1); // drained()'s own probe document
    expect(writer.client.closed).toBeNull();
  });

  it("closes 1007 on a changes frame whose documentId is not a document id", async () => {
    const { change } = docWithChange();
    const writer = await joined("alice", "laptop", true);
    writer.client.send(changesFrame(writer.peerId, "notadoc", change));
    await waitFor(() => writer.client.closed !== null, "closed");
    expect(writer.client.closed).toMatchObject({ code: CLOSE_CODES.malformed, reason: expect.stringMatching(/documentId/) });
  });

  it("closes 1007 on bytes that are not Automerge data (at FAST_PATH_MAX_BYTES) and 1008 above it, and stays up", async () => {
    const { documentId } = docWithChange();
    const atBound = await joined("alice", "laptop", true);
    atBound.client.send(changesFrame(atBound.peerId, documentId, new Uint8Array(FAST_PATH_MAX_BYTES).fill(7)));
    await waitFor(() => atBound.client.closed !== null, "closed");
    expect(atBound.client.closed).toMatchObject({ code: CLOSE_CODES.malformed, reason: expect.stringMatching(/Automerge/) });

    const above = await joined("alice", "phone", true);
    above.client.send(changesFrame(above.peerId, documentId, new Uint8Array(FAST_PATH_MAX_BYTES + 1)));
    await waitFor(() => above.client.closed !== null, "closed");
    expect(above.client.closed).toMatchObject({ code: CLOSE_CODES.policy, reason: expect.stringMatching(/bytes/) });

    const notAgreed = await joined("alice", "tablet", false);
    notAgreed.client.send(changesFrame(notAgreed.peerId, documentId, new Uint8Array([1])));
    await waitFor(() => notAgreed.client.closed !== null, "closed");
    expect(notAgreed.client.closed).toMatchObject({ code: CLOSE_CODES.policy, reason: expect.stringMatching(/not agreed/) });

    const probe = await joined("alice", "probe", true);
    expect(probe.client.closed).toBeNull();
  });
});
