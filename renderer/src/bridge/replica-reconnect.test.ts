/**
 * REPLICA_RECONNECT_MS at its edge, as connectHost's replica socket (host mode's /sync) uses it: after the core drops
 * the socket, and while the core cannot be reached, the next attempt comes exactly REPLICA_RECONNECT_MS later — not
 * a millisecond sooner. Real sockets on 127.0.0.1 with fake setTimeout/setInterval; waits for socket I/O spin on
 * setImmediate (not faked) with a real deadline.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { PeerId } from "@automerge/automerge-repo";
import type { BrowserWebSocketClientAdapter } from "@automerge/automerge-repo-network-websocket";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { REPLICA_RECONNECT_MS } from "../limits.js";
import { connectHost, type Connection } from "./connect.js";
import { replicaAdapterFor } from "./replica-network.js";
import { hostEnvironment } from "../test/host-environment.js";
import { untilImmediate as until, flushIo } from "../../../shared/test-immediate.js";

let http: Server;
let wss: WebSocketServer;
let syncSockets: WebSocket[];
let connection: Connection | null;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
  syncSockets = [];
  connection = null;
});

afterEach(async () => {
  const replica = connection ? replicaOf(connection) : null;
  // Closing a socket still connecting reports an error on it, and disconnect() removed the adapter's listener.
  (replica?.socket as unknown as WebSocket | undefined)?.on("error", () => undefined);
  try {
    replica?.disconnect();
  } catch {
    // never connected
  }
  (connection?.bridge as { close?: () => void } | undefined)?.close?.();
  vi.useRealTimers();
  for (const ws of wss?.clients ?? []) ws.terminate();
  wss?.close();
  if (http?.listening) {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
});

/** Plays main/host: accepts both sockets and records each /sync connection. */
async function listen(port = 0): Promise<number> {
  wss = new WebSocketServer({ noServer: true });
  http = createServer();
  http.on("upgrade", (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on("error", () => undefined);
      if (req.url?.startsWith("/sync")) syncSockets.push(ws);
    }),
  );
  await new Promise<void>((resolve) => http.listen(port, "127.0.0.1", resolve));
  return (http.address() as AddressInfo).port;
}

/** The replica host's adapter for this connection's /sync socket, made once per connection as the host makes it. */
const adapters = new WeakMap<Connection, BrowserWebSocketClientAdapter>();
const replicaOf = (c: Connection) => {
  if (!adapters.has(c)) adapters.set(c, replicaAdapterFor(c.replicaNetwork) as BrowserWebSocketClientAdapter);
  return adapters.get(c)!;
};

describe("the replica socket's reconnect (REPLICA_RECONNECT_MS)", () => {
  it("after the core drops it, reconnects REPLICA_RECONNECT_MS later, not a millisecond sooner", async () => {
    const port = await listen();
    connection = connectHost(hostEnvironment(WebSocket, port));
    const replica = replicaOf(connection);
    replica.connect("window" as PeerId, {});
    await until(() => syncSockets.length === 1 && replica.socket?.readyState === WebSocket.OPEN, "the replica connects");
    const first = replica.socket;

    syncSockets[0].terminate();
    await until(() => first?.readyState === WebSocket.CLOSED, "the replica sees the drop");
    vi.advanceTimersByTime(REPLICA_RECONNECT_MS - 1);
    await flushIo();
    expect(replica.socket).toBe(first);
    expect(syncSockets).toHaveLength(1);

    vi.advanceTimersByTime(1);
    expect(replica.socket).not.toBe(first);
    await until(() => syncSockets.length === 2, "the second connection reaches the core");
  });

  it("while the core cannot be reached, tries again every REPLICA_RECONNECT_MS, not a millisecond sooner", async () => {
    // A port nothing listens on (taken, then freed): every attempt is refused.
    const port = await listen();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
    connection = connectHost(hostEnvironment(WebSocket, port));
    const replica = replicaOf(connection);
    replica.connect("window" as PeerId, {});
    for (let attempt = 1; attempt <= 2; attempt++) {
      const current = replica.socket;
      await until(() => current?.readyState === WebSocket.CLOSED, `attempt ${attempt} is refused`);
      vi.advanceTimersByTime(REPLICA_RECONNECT_MS - 1);
      await flushIo();
      expect(replica.socket, `attempt ${attempt}`).toBe(current);
      vi.advanceTimersByTime(1);
      expect(replica.socket, `attempt ${attempt + 1}`).not.toBe(current);
    }

    // Once the core is back, the next attempt connects.
    await listen(port);
    const current = replica.socket;
    await until(() => current?.readyState === WebSocket.CLOSED, "the last refused attempt ends");
    vi.advanceTimersByTime(REPLICA_RECONNECT_MS);
    await until(() => syncSockets.length === 1, "the replica reaches the core again");
  });
});
