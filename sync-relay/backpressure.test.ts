/**
 * A member whose socket stops reading must not make the relay hold what others send it: presence to it is dropped
 * past RELAY_PRESENCE_BUFFER_BYTES (the next presence replaces it anyway), and a socket with more than
 * RELAY_MAX_BUFFERED_BYTES of sync waiting is closed 1013, so its client reconnects and a fresh session catches up.
 * Both bounds are lowered here; the kernel's own socket buffers take several MB before the relay queues anything.
 */
import { randomBytes } from "node:crypto";
import { next as A } from "@automerge/automerge";
import type { DocumentId } from "@automerge/automerge-repo";
import { encode } from "cbor-x";
import { describe, expect, it } from "vitest";
import { CLOSE_CODES, type WireFrame } from "../shared/sync-wire.js";
import { MAX_RELAY_MESSAGE_BYTES } from "../shared/limits.js";
import { RELAY_MAX_BUFFERED_BYTES, RELAY_PRESENCE_BUFFER_BYTES } from "./limits.js";
import { RELAY_PEER_ID } from "./server.js";
import { type RawClient } from "./test-wire.js";
import { useTestRelay } from "./test-relay.js";
import { waitFor } from "../shared/wait-for.js";

const PRESENCE_LIMIT = 256 * 1024;
const QUEUE_LIMIT = 1024 * 1024;
const t = useTestRelay("chopin-relay-backpressure-", ["alice", "bob"], { presenceBufferBytes: PRESENCE_LIMIT, maxBufferedBytes: QUEUE_LIMIT });

/** The socket under `client` stops reading (its kernel buffers fill, then the relay's queue for it grows). */
function stall(client: RawClient): { resume(): void } {
  const socket = (client.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
  socket.pause();
  return { resume: () => socket.resume() };
}

function request(client: RawClient, peerId: string, documentId: DocumentId): void {
  const [, message] = A.generateSyncMessage(A.init(), A.initSyncState());
  client.send({ type: "request", senderId: peerId, targetId: RELAY_PEER_ID, documentId, data: message! } as WireFrame);
}

describe("relay back-pressure", () => {
  it("keeps its bounds above one largest message", () => {
    expect(RELAY_MAX_BUFFERED_BYTES).toBeGreaterThan(MAX_RELAY_MESSAGE_BYTES);
    expect(RELAY_PRESENCE_BUFFER_BYTES).toBeLessThan(RELAY_MAX_BUFFERED_BYTES);
  });

  it("drops presence to a stalled reader instead of queueing it, and keeps the reader and the sender connected", async () => {
    const sink = await t.joined("alice", "alice:sink");
    const { documentId } = t.relay.repo.create({ items: [] });
    request(sink, "alice:sink", documentId);
    await waitFor(() => sink.frames.some((f) => f.type === "sync"), "the sink syncs the document");
    const source = await t.joined("bob", "bob:source");
    const reader = stall(sink);
    const frames = 600;
    const payload = encode({ cursor: "x".repeat(60 * 1024) });
    for (let i = 0; i < frames; i++) {
      source.send({ type: "ephemeral", senderId: "bob:source", targetId: RELAY_PEER_ID, documentId, data: payload, count: i + 1, sessionId: "s" } as WireFrame);
    }
    // Bob's flood is 36 MB: far beyond what the kernel buffers for the stalled socket. An answer to bob comes after
    // the relay has taken in (forwarded or dropped) everything bob sent before asking.
    const { documentId: sourceMarker } = t.relay.repo.create({ marker: "source" });
    request(source, "bob:source", sourceMarker);
    await waitFor(() => source.frames.some((f) => f.type === "sync" && (f as { documentId?: string }).documentId === sourceMarker), "the flood taken in", 30_000);
    const { ok } = (await (await fetch(`${t.relay.httpUrl}/healthz`)).json()) as { ok: boolean };
    expect(ok).toBe(true);
    reader.resume();
    // An answer asked for now comes after everything the relay queued before it (one socket keeps order).
    const { documentId: marker } = t.relay.repo.create({ marker: true });
    request(sink, "alice:sink", marker);
    await waitFor(() => sink.frames.some((f) => f.type === "sync" && (f as { documentId?: string }).documentId === marker), "the sink drained", 30_000);
    const delivered = sink.frames.filter((f) => f.type === "ephemeral").length;
    expect(delivered).toBeGreaterThan(0);
    expect(delivered).toBeLessThan(frames);
    expect(sink.closed).toBeNull();
    expect(source.closed).toBeNull();
  });

  it("closes a stalled reader 1013 once more sync than the bound waits for it", async () => {
    const sink = await t.joined("alice", "alice:sink");
    const documents: DocumentId[] = [];
    // Random bytes: Automerge deflates what it sends, and repeated bytes would shrink to nothing.
    for (let i = 0; i < 30; i++) documents.push(t.relay.repo.create({ blob: new Uint8Array(randomBytes(1024 * 1024)) }).documentId);
    const reader = stall(sink);
    for (const documentId of documents) request(sink, "alice:sink", documentId);
    await waitFor(() => t.log.some((line) => /too far behind/.test(line)), "the relay closes it", 30_000);
    expect(t.log).toContainEqual(expect.stringMatching(/^left: alice as peer alice:sink .*\(1013 too far behind/));
    reader.resume();
    await waitFor(() => sink.closed !== null, "the sink's socket closed", 30_000);
    // The close frame queues behind everything the reader did not read; when the relay's close grace runs out first
    // (a loaded machine), the socket is cut and the client sees 1006. Either way it reconnects to a fresh session.
    expect([CLOSE_CODES.tryAgainLater, 1006]).toContain(sink.closed!.code);
    // The relay serves the next connection as usual.
    const again = await t.joined("alice", "alice:sink");
    request(again, "alice:sink", documents[0]);
    await waitFor(() => again.frames.some((f) => f.type === "sync"), "a fresh session syncs");
  });
});
