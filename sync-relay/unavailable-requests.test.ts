/**
 * Requests for documents the relay does not have, through a real relay on 127.0.0.1 and raw sockets: each is answered
 * "doc-unavailable" and costs no handle afterwards, a session may ask for RELAY_MAX_UNAVAILABLE_DOCS_PER_SESSION
 * distinct such documents and is closed (1008, with a reason) on the next one, and a document that arrives later is
 * still served to whoever asks again.
 */
import { join } from "node:path";
import { next as A } from "@automerge/automerge";
import { generateAutomergeUrl, parseAutomergeUrl, type DocumentId } from "@automerge/automerge-repo";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RELAY_MAX_UNAVAILABLE_DOCS_PER_SESSION } from "./limits.js";
import { CLOSE_CODES, type WireFrame } from "../shared/sync-wire.js";
import { RELAY_PEER_ID, startRelay, type RunningRelay } from "./server.js";
import { RawDocSync, rawClient, tempDir, type RawClient } from "./test-wire.js";
import { waitFor } from "../shared/wait-for.js";

let dir: ReturnType<typeof tempDir>;
let relay: RunningRelay;
let token: string;
const sockets: RawClient[] = [];

beforeEach(async () => {
  dir = tempDir("chopin-relay-unavailable-");
  relay = await startRelay({ dataDir: join(dir.path, "relay") });
  token = relay.users.add("alice").token;
});

afterEach(async () => {
  for (const s of sockets.splice(0)) s.ws.terminate();
  await relay.close();
  dir.remove();
});

async function joined(peerId: string): Promise<RawClient> {
  const c = rawClient(relay.url, token);
  sockets.push(c);
  await c.join(peerId);
  return c;
}

const emptyRequest = A.generateSyncMessage(A.init(), A.initSyncState())[1]!;
function request(peerId: string, documentId: string): WireFrame {
  return { type: "request", senderId: peerId, targetId: RELAY_PEER_ID, documentId, data: emptyRequest } as WireFrame;
}
const randomId = () => parseAutomergeUrl(generateAutomergeUrl()).documentId;
const unavailableCount = (c: RawClient) => c.frames.filter((f) => f.type === "doc-unavailable").length;

describe("requests for documents the relay does not have", () => {
  it("answers up to the per-session bound with doc-unavailable, keeps no handle for them, and closes 1008 above it", async () => {
    const baseline = relay.loadedDocuments();
    const c = await joined("alice:laptop");
    const ids = Array.from({ length: RELAY_MAX_UNAVAILABLE_DOCS_PER_SESSION }, randomId);
    for (const id of ids) c.send(request("alice:laptop", id));
    // Asking again for one already answered is not a new document.
    c.send(request("alice:laptop", ids[0]));
    await waitFor(() => unavailableCount(c) >= ids.length + 1 || c.closed !== null, "every request answered", 60_000);
    expect(c.closed).toBeNull();
    expect(new Set(c.frames.filter((f) => f.type === "doc-unavailable").map((f) => (f as { documentId: string }).documentId))).toEqual(
      new Set(ids),
    );
    await waitFor(() => relay.loadedDocuments() === baseline, "the answered handles are dropped");
    expect(relay.unavailable.dropped).toBeGreaterThanOrEqual(ids.length);

    c.send(request("alice:laptop", randomId()));
    await waitFor(() => c.closed !== null, "one more closes the session");
    expect(c.closed).toEqual({
      code: CLOSE_CODES.policy,
      reason: `asked for more than ${RELAY_MAX_UNAVAILABLE_DOCS_PER_SESSION} documents this relay does not have`,
    });
    // The bound is per session: a new connection may ask again.
    const again = await joined("alice:laptop");
    again.send(request("alice:laptop", randomId()));
    await waitFor(() => unavailableCount(again) === 1, "answered on the new session");
    expect(again.closed).toBeNull();
  }, 120_000);

  it("still serves a document that arrives after a request for it was answered unavailable", async () => {
    const reader = await joined("alice:reader");
    const documentId = randomId() as DocumentId;
    reader.send(request("alice:reader", documentId));
    await waitFor(() => unavailableCount(reader) === 1, "answered unavailable");
    await waitFor(() => relay.repo.handles[documentId] === undefined, "the handle is dropped");

    // A writer brings the document: its sync message carries the change.
    const writer = await joined("alice:writer");
    const doc = A.change(A.init<{ items: string[] }>(), (d) => void (d.items = ["late"]));
    await new RawDocSync(writer, "alice:writer", RELAY_PEER_ID, documentId, doc).push();
    expect(relay.repo.handles[documentId]?.isReady()).toBe(true);

    reader.send(request("alice:reader", documentId));
    await waitFor(() => reader.frames.some((f) => f.type === "sync" && (f as { documentId?: string }).documentId === documentId), "served");
    expect(unavailableCount(reader)).toBe(1);
    expect(relay.repo.handles[documentId].doc()).toEqual({ items: ["late"] });
  });
});
