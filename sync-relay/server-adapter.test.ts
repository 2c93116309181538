/**
 * The relay adapter's own timers at their edges, with its defaults (RELAY_JOIN_TIMEOUT_MS, RELAY_KEEPALIVE_MS,
 * RELAY_CLOSE_GRACE_MS): real sockets on 127.0.0.1, fake setTimeout/setInterval so each bound is hit to the
 * millisecond. Waits for socket I/O spin on setImmediate (not faked) with a real deadline.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { PeerId } from "@automerge/automerge-repo";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { RELAY_JOIN_TIMEOUT_MS, RELAY_KEEPALIVE_MS } from "../shared/limits.js";
import { RELAY_CLOSE_GRACE_MS } from "./limits.js";
import { CLOSE_CODES, RELAY_PROTOCOL_VERSION, decodeFrame, encodeFrame } from "../shared/sync-wire.js";
import { RelayServerAdapter } from "./server-adapter.js";
import { untilImmediate as until, flushIo } from "../shared/test-immediate.js";

let http: Server;
let wss: WebSocketServer;
let adapter: RelayServerAdapter;
let accepted: WebSocket[];
const clients: WebSocket[] = [];

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
  accepted = [];
  adapter = new RelayServerAdapter();
  adapter.connect("relay" as PeerId);
  wss = new WebSocketServer({ noServer: true });
  http = createServer();
  http.on("upgrade", (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      accepted.push(ws);
      adapter.accept(ws, { user: "alice", tokenHash: "h" });
    }),
  );
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
});
afterEach(async () => {
  vi.useRealTimers();
  adapter.disconnect();
  for (const c of clients.splice(0)) c.terminate();
  for (const ws of accepted) ws.terminate();
  wss.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});


async function client(): Promise<{ ws: WebSocket; closed: { code: number; reason: string } | null; frames: unknown[] }> {
  const ws = new WebSocket(`ws://127.0.0.1:${(http.address() as AddressInfo).port}/`);
  clients.push(ws);
  const c = { ws, closed: null as { code: number; reason: string } | null, frames: [] as unknown[] };
  ws.on("close", (code, reason) => (c.closed = { code, reason: reason.toString("utf8") }));
  ws.on("message", (data) => c.frames.push(decodeFrame(new Uint8Array(data as Buffer))));
  ws.on("error", () => undefined);
  await until(() => ws.readyState === ws.OPEN && accepted.length > 0, "the socket is accepted");
  return c;
}


describe("RelayServerAdapter timers (defaults)", () => {
  it("keeps a socket without a join frame for RELAY_JOIN_TIMEOUT_MS - 1 ms and closes it 4408 at the bound", async () => {
    const c = await client();
    vi.advanceTimersByTime(RELAY_JOIN_TIMEOUT_MS - 1);
    await flushIo();
    expect(c.closed).toBeNull();
    vi.advanceTimersByTime(1);
    await until(() => c.closed !== null, "the join timeout closes the socket");
    expect(c.closed!.code).toBe(CLOSE_CODES.joinTimeout);
  });

  it("closes (1001, with a reason) a joined socket that answers no ping and sends nothing for two RELAY_KEEPALIVE_MS intervals, not a millisecond sooner", async () => {
    const c = await client();
    c.ws.send(encodeFrame({ type: "join", senderId: "alice:dev", peerMetadata: {}, supportedProtocolVersions: [RELAY_PROTOCOL_VERSION] }));
    await until(() => c.frames.length > 0, "the relay answers the join");
    c.ws.pause(); // from now on the client reads nothing, so it answers no ping
    const server = accepted[0];
    vi.advanceTimersByTime(2 * RELAY_KEEPALIVE_MS - 1);
    await flushIo();
    expect(server.readyState).toBe(WebSocket.OPEN);
    vi.advanceTimersByTime(1);
    // A close frame, not a cut: the socket is still writable.
    await until(() => server.readyState === WebSocket.CLOSING, "the silent socket is sent a close frame");
    c.ws.resume();
    await until(() => c.closed !== null, "the client reads the close frame");
    expect(c.closed).toEqual({ code: CLOSE_CODES.goingAway, reason: `no pong and no frame for ${RELAY_KEEPALIVE_MS} ms` });
  });

  it("keeps a socket whose pongs lag while its frames keep arriving, and lets it go once they stop", async () => {
    const c = await client();
    c.ws.send(encodeFrame({ type: "join", senderId: "alice:dev", peerMetadata: {}, supportedProtocolVersions: [RELAY_PROTOCOL_VERSION] }));
    await until(() => c.frames.length > 0, "the relay answers the join");
    c.ws.pause(); // reads nothing, so no pong ever comes back; it still sends
    const server = accepted[0];
    let received = 0;
    adapter.on("message", () => received++);
    const presence = encodeFrame({
      type: "ephemeral",
      senderId: "alice:dev",
      targetId: "relay",
      documentId: "4NMNnkMhL8jXrdJ9jamS58PAVdXu",
      data: new Uint8Array([1]),
      count: 1,
      sessionId: "s",
    });
    for (let interval = 0; interval < 4; interval++) {
      const before = received;
      c.ws.send(presence);
      await until(() => received > before, `frame ${interval} reaches the adapter`);
      vi.advanceTimersByTime(RELAY_KEEPALIVE_MS);
      await flushIo();
      expect(server.readyState).toBe(WebSocket.OPEN);
    }
    vi.advanceTimersByTime(2 * RELAY_KEEPALIVE_MS);
    await until(() => server.readyState === WebSocket.CLOSING, "a socket silent for two intervals is let go");
  });

  it("terminates a socket that does not finish the close handshake RELAY_CLOSE_GRACE_MS after closing it", async () => {
    const c = await client();
    c.ws.pause(); // never reads the close frame, so never answers it
    const server = accepted[0];
    expect(adapter.cutWhere(() => true, CLOSE_CODES.revoked, "revoked")).toBe(1);
    vi.advanceTimersByTime(RELAY_CLOSE_GRACE_MS - 1);
    await flushIo();
    expect(server.readyState).toBe(WebSocket.CLOSING);
    vi.advanceTimersByTime(1);
    await until(() => server.readyState === WebSocket.CLOSED, "the unanswered close ends in terminate");
  });
});
