/**
 * A document whose sync message exceeds the relay's limit must not hold back the others or loop the connection: the
 * client keeps that message back and reports the document as 'too-large'. Real relay and real sockets on 127.0.0.1;
 * the relay and clients run with a small limit so the test needs no 17 MB document.
 */
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Repo, type DocumentId, type PeerId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { MAX_RELAY_MESSAGE_BYTES } from "../../shared/limits.js";
import { RELAY_PROTOCOL_VERSION, decodeFrame, encodeFrame, type WireFrame } from "../../shared/sync-wire.js";
import { startRelay, type RunningRelay } from "../../sync-relay/server.js";
import { RelayClientAdapter } from "./relay-client-adapter.js";
import { RelayConnection } from "./relay-connection.js";
import { tempDir } from "./test-helpers.js";
import { tooLargeError } from "./too-large.js";
import { waitFor } from "../../shared/wait-for.js";

const LIMIT = 64 * 1024;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function client(url: string, token: string, peerId: string): { repo: Repo; connection: RelayConnection; connects: () => number } {
  const connection = new RelayConnection({ url, token, peerId, maxMessageBytes: LIMIT, minBackoffMs: 20, maxBackoffMs: 200 });
  // Transitions into "connected" (the status also re-announces "connected" when only lastError changes).
  let connects = 0;
  let previous = connection.status;
  connection.onStatus((event) => {
    if (event.state === "connected" && previous !== "connected") connects++;
    previous = event.state;
  });
  const repo = new Repo({ network: [connection.adapter], peerId: peerId as PeerId });
  connection.attachRepo(repo);
  cleanups.push(async () => {
    await connection.close();
    await repo.shutdown().catch(() => undefined);
  });
  return { repo, connection, connects: () => connects };
}

describe("a document too large for the relay", () => {
  it("is kept back and reported while a small document reaches the relay and a teammate, with no reconnect loop", async () => {
    const dir = tempDir("chopin-too-large-");
    const relay: RunningRelay = await startRelay({ dataDir: join(dir.path, "relay"), maxMessageBytes: LIMIT });
    cleanups.push(() => dir.remove(), () => relay.close());
    let socketsOpened = 0;
    relay.httpServer.on("upgrade", () => socketsOpened++);
    const alice = client(relay.url, relay.users.add("alice").token, "alice:laptop");
    const bob = client(relay.url, relay.users.add("bob").token, "bob:desk");

    // Incompressible text well above the limit; the small document is made after it, as in the audit.
    const big = alice.repo.create({ text: randomBytes(LIMIT * 2).toString("base64") });
    const small = alice.repo.create({ title: "small" });
    await waitFor(() => relay.repo.handles[small.documentId]?.isReady() ?? false, "the small document reaches the relay");
    const seen = await bob.repo.find<{ title: string }>(small.documentId);
    expect(seen.doc().title).toBe("small");

    await waitFor(() => alice.connection.lastError?.code === "too-large", "alice reports the big document");
    expect(alice.connection.status).toBe("connected");
    expect(alice.connection.lastError).toMatchObject({ code: "too-large", details: { documentId: big.documentId, limitBytes: LIMIT } });
    expect(alice.connection.lastError?.message).toContain(big.documentId);
    expect(alice.connection.lastError?.message).toMatch(/too large to sync.*other documents keep syncing/);

    // More edits to both: the big one is kept back again, the small one keeps flowing, on the same sockets.
    big.change((d) => void (d.text += "!"));
    small.change((d) => void (d.title = "small, edited"));
    await waitFor(() => seen.doc().title === "small, edited", "the teammate sees the edit");
    expect(relay.repo.handles[big.documentId as DocumentId]?.isReady() ?? false).toBe(false);
    expect(alice.connects()).toBe(1);
    expect(socketsOpened).toBe(2);
    expect(alice.connection.adapter.tooLargeDocuments.map((d) => d.documentId)).toEqual([big.documentId]);
  }, 60_000);
});

describe("the client's message-size check at the relay's limit", () => {
  it("sends a frame of exactly the limit, keeps back one byte more, and clears the report once the document fits", async () => {
    const LIMIT_EDGE = 10_000;
    const received: number[] = [];
    const closes: number[] = [];
    const server = new WebSocketServer({ port: 0, host: "127.0.0.1", maxPayload: LIMIT_EDGE });
    await new Promise<void>((resolve) => server.once("listening", resolve));
    server.on("connection", (ws: WebSocket) => {
      ws.on("close", (code) => closes.push(code));
      ws.on("message", (data: Buffer) => {
        const decoded = decodeFrame(data);
        if (!decoded.ok) return;
        if (decoded.frame.type === "join") {
          ws.send(
            encodeFrame({
              type: "peer",
              senderId: "relay",
              targetId: decoded.frame.senderId,
              peerMetadata: {},
              selectedProtocolVersion: RELAY_PROTOCOL_VERSION,
            }),
          );
        } else {
          received.push(data.byteLength);
        }
      });
    });
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const adapter = new RelayClientAdapter({ url, token: "t", maxMessageBytes: LIMIT_EDGE, minBackoffMs: 20, maxBackoffMs: 100 });
    cleanups.push(
      () => new Promise<void>((resolve) => server.close(() => resolve())),
      () => adapter.disconnect(),
    );
    adapter.connect("alice:laptop" as PeerId, {});
    await waitFor(() => adapter.state === "connected", "connected");

    const message = (size: number) => ({
      type: "sync" as const,
      senderId: "alice:laptop" as PeerId,
      targetId: "relay" as PeerId,
      documentId: "doc1" as DocumentId,
      data: new Uint8Array(size),
    });
    const encodedSize = (size: number) => encodeFrame(message(size) as unknown as WireFrame).byteLength;
    let exact = LIMIT_EDGE - 200;
    while (encodedSize(exact) < LIMIT_EDGE) exact++;
    expect(encodedSize(exact)).toBe(LIMIT_EDGE);

    adapter.send(message(exact));
    await waitFor(() => received.includes(LIMIT_EDGE), "the frame at the limit arrives");
    expect(adapter.lastError).toBeNull();

    adapter.send(message(exact + 1));
    expect(adapter.lastError).toMatchObject({ code: "too-large", details: { documentId: "doc1", bytes: LIMIT_EDGE + 1 } });

    adapter.send(message(10));
    await waitFor(() => received.length === 2, "a later message for the document that fits arrives");
    expect(received).toEqual([LIMIT_EDGE, encodedSize(10)]);
    expect(adapter.lastError).toBeNull();
    expect(adapter.state).toBe("connected");
    expect(closes).toEqual([]);
  });

  it("uses the relay's own limit by default", () => {
    const adapter = new RelayClientAdapter({ url: "ws://127.0.0.1:1/", token: "t" });
    expect(adapter.tooLargeDocuments).toEqual([]);
    expect(tooLargeError([{ documentId: "d", bytes: MAX_RELAY_MESSAGE_BYTES + 1 }], MAX_RELAY_MESSAGE_BYTES)?.message).toMatch(
      /^Document d is too large to sync \(16\.0 MB; the relay accepts at most 16\.0 MB at once\)/,
    );
  });

  it("names every document kept back, and no error when there is none", () => {
    expect(tooLargeError([], 1)).toBeNull();
    const error = tooLargeError([{ documentId: "a", bytes: 3 << 20 }, { documentId: "b", bytes: 5 << 20 }], 1 << 20);
    expect(error).toMatchObject({ code: "too-large", details: { documentIds: ["a", "b"] } });
    expect(error?.message).toMatch(/^2 documents are too large to sync/);
  });
});
