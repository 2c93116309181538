import { afterEach, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import type { BridgeRequest } from "../../../shared/api.js";
import { ChopinError } from "../../../shared/errors.js";
import { BRIDGE_RECONNECT_MAX_MS, BRIDGE_RECONNECT_MIN_MS, BRIDGE_REFUSALS_BEFORE_FATAL, MAX_BRIDGE_PENDING_CALLS } from "../limits.js";
import {
  CORE_REFUSED_MESSAGE,
  createSocketBridge,
  httpProbe,
  reconnectDelay,
  type SocketBridge,
  type WebSocketLike,
} from "./socket-bridge.js";
import { waitFor } from "../../../shared/wait-for.js";

type Handler = (request: BridgeRequest, socket: WebSocket) => void;

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

async function startServer(handler: Handler, listenPort = 0, accept: () => boolean = () => true) {
  // A refused upgrade is answered 401, as main/host answers a wrong secret.
  const verifyClient = (_info: unknown, done: (ok: boolean, code?: number) => void) => done(accept(), 401);
  const wss = new WebSocketServer({ host: "127.0.0.1", port: listenPort, verifyClient });
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

/** A core on `port` (0: any free one) that answers every call with `{ displayName: "B" }`; stop() takes it away. */
async function listenOn(port: number) {
  const server = await startServer(
    (request, socket) => socket.send(JSON.stringify({ id: request.id, ok: true, result: { displayName: "B" } })),
    port,
  );
  return {
    ...server,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const client of server.wss.clients) client.terminate();
        server.wss.close(() => resolve());
      }),
  };
}

/**
 * Plays main/host for a wrong secret: HTTP answers (ws's own server says 426 to a plain request) and the first
 * `refuseFirst` upgrades are turned away with 401; later ones are served like listenOn's.
 */
async function refusingCore(refuseFirst: number) {
  let upgrades = 0;
  const server = await startServer(
    (request, socket) => socket.send(JSON.stringify({ id: request.id, ok: true, result: { displayName: "B" } })),
    0,
    () => ++upgrades > refuseFirst,
  );
  return { url: `ws://127.0.0.1:${server.port}/api?secret=wrong`, upgrades: () => upgrades };
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
    await waitFor(() => events.length === 1, "events.length === 1");
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
    await waitFor(() => bridge.connectionState === "open", "bridge.connectionState === \"open\"");
    await expect(bridge.api.getSyncStatus()).resolves.toEqual({ state: "local-only" });
    expect(states).toContain("closed");
    expect(server.received.filter((r) => r.method === "createDocument")).toHaveLength(1);
  });

  it("refuses calls made while the core is down at once and never replays them once it is back", async () => {
    // Reserve a port, close it, and point the bridge at it before anything listens there.
    const reserved = await listenOn(0);
    await reserved.stop();
    const port = reserved.port;
    const bridge = bridgeTo(`ws://127.0.0.1:${port}/api`);
    // A call made before the first connection settles waits for it; the core being down settles it as a refusal.
    const early = await bridge.api.getSettings().catch((e: unknown) => e);
    expect((early as ChopinError).code).toBe("core-unavailable");
    expect(bridge.connectionState).not.toBe("open");
    const clicks = await Promise.all([1, 2, 3].map(() => bridge.api.createDocument({}).catch((e: unknown) => e)));
    expect(clicks.map((e) => (e as ChopinError).code)).toEqual(["core-unavailable", "core-unavailable", "core-unavailable"]);

    const back = await listenOn(port);
    await waitFor(() => bridge.connectionState === "open", "bridge.connectionState === \"open\"");
    await expect(bridge.api.getSettings()).resolves.toEqual({ displayName: "B" });
    expect(back.received.map((r) => r.method)).toEqual(["getSettings"]);
  });

  it("after a drop, refuses writes while the core is stopped, and nothing reaches the core when it returns", async () => {
    const first = await listenOn(0);
    const bridge = bridgeTo(`ws://127.0.0.1:${first.port}/api`);
    await expect(bridge.api.getSettings()).resolves.toEqual({ displayName: "B" });
    await first.stop();
    await waitFor(() => bridge.connectionState !== "open", "bridge.connectionState !== \"open\"");
    const clicks = await Promise.all([1, 2, 3].map(() => bridge.api.createDocument({}).catch((e: unknown) => e)));
    expect(clicks.every((e) => e instanceof ChopinError && e.code === "core-unavailable")).toBe(true);

    const back = await listenOn(first.port);
    await waitFor(() => bridge.connectionState === "open", "bridge.connectionState === \"open\"");
    await bridge.api.getSettings();
    expect(back.received.map((r) => r.method)).toEqual(["getSettings"]);
  });

  it(`stops for good as "refused" after BRIDGE_REFUSALS_BEFORE_FATAL (${BRIDGE_REFUSALS_BEFORE_FATAL}) upgrades turned away by a running core`, async () => {
    const core = await refusingCore(Infinity);
    const bridge = bridgeTo(core.url);
    const states: string[] = [];
    bridge.onConnection((s) => states.push(s));
    const waiting = await bridge.api.listDocuments().catch((e: unknown) => e);
    expect((waiting as ChopinError).code).toBe("unauthorized");
    expect((waiting as ChopinError).message).toBe(CORE_REFUSED_MESSAGE);
    expect(bridge.connectionState).toBe("refused");
    expect(core.upgrades()).toBe(BRIDGE_REFUSALS_BEFORE_FATAL);
    expect(states).not.toContain("open");
    const later = await bridge.api.createDocument({}).catch((e: unknown) => e);
    expect((later as ChopinError).code).toBe("unauthorized");
    bridge.close();
    expect(bridge.connectionState).toBe("refused");
    expect(core.upgrades()).toBe(BRIDGE_REFUSALS_BEFORE_FATAL);
  });

  it("keeps reconnecting after one refusal fewer than the bound, and then works", async () => {
    const core = await refusingCore(BRIDGE_REFUSALS_BEFORE_FATAL - 1);
    const bridge = bridgeTo(core.url);
    const states: string[] = [];
    bridge.onConnection((s) => states.push(s));
    await expect(bridge.api.getSettings()).resolves.toEqual({ displayName: "B" });
    expect(bridge.connectionState).toBe("open");
    expect(states).not.toContain("refused");
  });

  it("never takes a core that is down for a refusing one, however often it retries", async () => {
    const reserved = await listenOn(0);
    await reserved.stop();
    let attempts = 0;
    const bridge = createSocketBridge(`ws://127.0.0.1:${reserved.port}/api`, (u) => {
      attempts++;
      return new WebSocket(u) as unknown as WebSocketLike;
    });
    cleanups.push(() => bridge.close());
    await waitFor(() => attempts > BRIDGE_REFUSALS_BEFORE_FATAL + 1, "attempts > BRIDGE_REFUSALS_BEFORE_FATAL + 1");
    expect(bridge.connectionState).not.toBe("refused");
  });

  it("httpProbe tells a listening HTTP server from a closed port", async () => {
    const core = await refusingCore(Infinity);
    await expect(httpProbe(core.url)()).resolves.toBe(true);
    expect(core.upgrades()).toBe(0);
    const reserved = await listenOn(0);
    await reserved.stop();
    await expect(httpProbe(`ws://127.0.0.1:${reserved.port}/api`)()).resolves.toBe(false);
  });

  it(`keeps at most MAX_BRIDGE_PENDING_CALLS (${MAX_BRIDGE_PENDING_CALLS}) calls waiting`, async () => {
    const server = await startServer(() => {});
    const bridge = bridgeTo(server.url);
    const waiting = Array.from({ length: MAX_BRIDGE_PENDING_CALLS }, () => bridge.api.getSettings().catch((e: unknown) => e));
    const refused = await bridge.api.getSettings().catch((e: unknown) => e);
    expect((refused as ChopinError).code).toBe("core-unreachable");
    await waitFor(() => server.received.length === MAX_BRIDGE_PENDING_CALLS, "server.received.length === MAX_BRIDGE_PENDING_CALLS");
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
