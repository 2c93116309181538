import { afterEach, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import type { BridgeRequest } from "../../../shared/api.js";
import { ChopinError } from "../../../shared/errors.js";
import { BRIDGE_RECONNECT_MAX_MS, BRIDGE_RECONNECT_MIN_MS, MAX_BRIDGE_PENDING_CALLS } from "../../../shared/limits.js";
import { createSocketBridge, reconnectDelay, type SocketBridge, type WebSocketLike } from "./socket-bridge.js";
import { waitFor } from "../test/wait-for.js";

type Handler = (request: BridgeRequest, socket: WebSocket) => void;

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

async function startServer(handler: Handler) {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
  const received: BridgeRequest[] = [];
  wss.on("connection", (socket) => {
    socket.on("message", (data) => {
      const request = JSON.parse(String(data)) as BridgeRequest;
      received.push(request);
      handler(request, socket);
    });
  });
  const port = (wss.address() as { port: number }).port;
  cleanups.push(() => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  });
  return { wss, port, received, url: `ws://127.0.0.1:${port}/api?secret=s` };
}

function bridgeTo(url: string): SocketBridge {
  const bridge = createSocketBridge(url, (u) => new WebSocket(u) as unknown as WebSocketLike);
  cleanups.push(() => bridge.close());
  return bridge;
}

describe("socket bridge", () => {
  it("resolves answers, rebuilds ChopinErrors and delivers events", async () => {
    const server = await startServer((request, socket) => {
      if (request.method === "getIdentity") {
        socket.send(JSON.stringify({ id: request.id, ok: true, result: { peerId: "p", displayName: "Ada", color: "#f00" } }));
        socket.send(JSON.stringify({ event: "documents-changed", payload: { ids: ["d1"] } }));
      } else {
        socket.send(JSON.stringify({ id: request.id, ok: false, error: { code: "not-found", message: "No such document." } }));
      }
    });
    const bridge = bridgeTo(server.url);
    const events: unknown[] = [];
    bridge.on("documents-changed", (payload) => events.push(payload));
    await expect(bridge.api.getIdentity()).resolves.toEqual({ peerId: "p", displayName: "Ada", color: "#f00" });
    const error = await bridge.api.getDocument("nope").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChopinError);
    expect((error as ChopinError).code).toBe("not-found");
    expect((error as ChopinError).message).toBe("No such document.");
    await waitFor(() => events.length === 1);
    expect(events).toEqual([{ ids: ["d1"] }]);
  });

  it("drops trailing undefined arguments", async () => {
    const server = await startServer((request, socket) => socket.send(JSON.stringify({ id: request.id, ok: true, result: [] })));
    const bridge = bridgeTo(server.url);
    await bridge.api.listDocuments(undefined);
    await bridge.api.listDocuments({ archived: true });
    expect(server.received.map((r) => r.args)).toEqual([[], [{ archived: true }]]);
  });

  it("rejects a call whose answer was lost with the socket, reconnects, and never resends it", async () => {
    let dropNext = true;
    const server = await startServer((request, socket) => {
      if (dropNext) {
        dropNext = false;
        socket.terminate();
        return;
      }
      socket.send(JSON.stringify({ id: request.id, ok: true, result: { state: "local-only" } }));
    });
    const bridge = bridgeTo(server.url);
    const states: string[] = [];
    bridge.onConnection((s) => states.push(s));
    const lost = await bridge.api.createDocument({ title: "x" }).catch((e: unknown) => e);
    expect((lost as ChopinError).code).toBe("core-unreachable");
    await waitFor(() => bridge.connectionState === "open");
    await expect(bridge.api.getSyncStatus()).resolves.toEqual({ state: "local-only" });
    expect(states).toContain("closed");
    expect(server.received.filter((r) => r.method === "createDocument")).toHaveLength(1);
  });

  it("holds calls made while the core is unreachable and sends them once it is back", async () => {
    // Reserve a port, close it, and point the bridge at it before anything listens there.
    const probe = await startServer(() => {});
    const port = probe.port;
    await new Promise<void>((resolve) => probe.wss.close(() => resolve()));
    const bridge = bridgeTo(`ws://127.0.0.1:${port}/api`);
    const answer = bridge.api.getSettings();
    await waitFor(() => bridge.connectionState === "closed");
    const wss = new WebSocketServer({ host: "127.0.0.1", port });
    cleanups.push(() => {
      for (const client of wss.clients) client.terminate();
      wss.close();
    });
    wss.on("connection", (socket) =>
      socket.on("message", (data) => {
        const request = JSON.parse(String(data)) as BridgeRequest;
        socket.send(JSON.stringify({ id: request.id, ok: true, result: { displayName: "B" } }));
      }),
    );
    await expect(answer).resolves.toEqual({ displayName: "B" });
  });

  it(`keeps at most MAX_BRIDGE_PENDING_CALLS (${MAX_BRIDGE_PENDING_CALLS}) calls waiting`, async () => {
    const server = await startServer(() => {});
    const bridge = bridgeTo(server.url);
    const waiting = Array.from({ length: MAX_BRIDGE_PENDING_CALLS }, () => bridge.api.getSettings().catch((e: unknown) => e));
    const refused = await bridge.api.getSettings().catch((e: unknown) => e);
    expect((refused as ChopinError).code).toBe("core-unreachable");
    await waitFor(() => server.received.length === MAX_BRIDGE_PENDING_CALLS);
    bridge.close();
    const results = await Promise.all(waiting);
    expect(results.every((r) => r instanceof ChopinError)).toBe(true);
  });

  it("backs off from the minimum to the cap", () => {
    expect(reconnectDelay(0)).toBe(BRIDGE_RECONNECT_MIN_MS);
    expect(reconnectDelay(1)).toBe(BRIDGE_RECONNECT_MIN_MS * 2);
    expect(reconnectDelay(1000)).toBe(BRIDGE_RECONNECT_MAX_MS);
  });
});
