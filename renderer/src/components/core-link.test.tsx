// @vitest-environment jsdom
/**
 * The window against a real socket bridge: a core that refuses this page's secret, and a core that stops and comes
 * back. The core is the memory core served over a real loopback WebSocket (serveCore below).
 */
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { WebSocket, WebSocketServer } from "ws";
import { EVENT_NAMES, type BridgeRequest, type ChopinBridge } from "../../../shared/api.js";
import { toErrorShape } from "../../../shared/errors.js";
import "../test/jsdom-layout.js";
import { linkedRepos } from "../test/linked-repos.js";
import { stopTestReplicas, testReplica } from "../test/test-replica.js";
import { createMemoryBridge } from "../test/memory-bridge.js";
import { until } from "../test/until.js";
import { AppServicesContext, createAppServices } from "../state/app-services.js";
import { CORE_REFUSED_MESSAGE, createSocketBridge, type WebSocketLike } from "../bridge/socket-bridge.js";
import { App } from "./App.js";
import { SYNC_UNKNOWN_TEXT } from "./StatusBar.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  stopTestReplicas();
  cleanup();
  while (cleanups.length) cleanups.pop()!();
});

/**
 * Serves a bridge (the memory core) over a real loopback WebSocket framed like main/host's /api socket; `accept`
 * false turns every upgrade away with 401 as the host does for a wrong secret. stop() takes the core away, start()
 * brings it back on the same port.
 */
async function serveCore(bridge: ChopinBridge, accept = true) {
  let wss: WebSocketServer | null = null;
  let port = 0;
  const serve = (socket: WebSocket) => {
    const send = (frame: unknown) => socket.readyState === socket.OPEN && socket.send(JSON.stringify(frame));
    const offs = EVENT_NAMES.map((event) => bridge.on(event, (payload) => send({ event, payload })));
    socket.on("close", () => offs.forEach((off) => off()));
    socket.on("message", async (data) => {
      const { id, method, args } = JSON.parse(String(data)) as BridgeRequest;
      try {
        send({ id, ok: true, result: await (bridge.api[method] as (...a: unknown[]) => Promise<unknown>)(...args) });
      } catch (error) {
        send({ id, ok: false, error: toErrorShape(error) });
      }
    });
  };
  const start = async () => {
    const server = new WebSocketServer({ host: "127.0.0.1", port, verifyClient: (_info, done) => done(accept, 401) });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    server.on("connection", serve);
    port = (server.address() as { port: number }).port;
    wss = server;
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      const server = wss;
      wss = null;
      if (!server) return resolve();
      for (const client of server.clients) client.terminate();
      server.close(() => resolve());
    });
  await start();
  cleanups.push(() => void stop());
  return { url: `ws://127.0.0.1:${port}/api?secret=s`, start, stop };
}

function renderOver(url: string) {
  const { replica, core, close } = linkedRepos();
  cleanups.push(close);
  const bridge = createSocketBridge(url, (u) => new WebSocket(u) as unknown as WebSocketLike);
  cleanups.push(() => bridge.close());
  const services = createAppServices(bridge, testReplica(replica, bridge.api), {
    state: () => bridge.connectionState,
    on: (listener) => bridge.onConnection(listener),
  });
  render(
    <AppServicesContext.Provider value={services}>
      <App />
    </AppServicesContext.Provider>,
  );
  return { bridge, core };
}

const newButton = () => screen.getByRole("button", { name: "New document" }) as HTMLButtonElement;
const syncStatus = () => screen.getByRole("status", { name: "Sync status" }).textContent;

describe("the window's link to the core", () => {
  it("shows the fatal screen, not a shell that looks alive, when the core refuses the secret", async () => {
    const core = await serveCore(createMemoryBridge(), false);
    renderOver(core.url);
    // This page never linked with that secret: a stale (or wrong) link, not "could not start" (the core runs).
    await until(() => screen.queryByRole("main", { name: "This link no longer works" }) !== null, "the fatal screen");
    expect(screen.getByRole("alert").textContent).toBe(CORE_REFUSED_MESSAGE);
    expect(screen.queryByRole("navigation", { name: "Documents" })).toBeNull();
  });

  it("while the core is stopped: sync status unknown, New disabled, clicks refused at once and never replayed", async () => {
    const memory = createMemoryBridge();
    const served = await serveCore(memory);
    renderOver(served.url);
    await until(() => syncStatus() === "Local only" && !newButton().disabled, "the window connected");

    await served.stop();
    await until(() => screen.queryByText("Lost the connection to Chopin — reconnecting…") !== null, "the link to drop");
    expect(syncStatus()).toBe(SYNC_UNKNOWN_TEXT);
    expect(newButton().disabled).toBe(true);
    fireEvent.click(newButton());
    for (let i = 0; i < 3; i++) fireEvent.keyDown(window, { key: "n", ctrlKey: true });
    await until(() => screen.queryByText(/cannot be reached right now/) !== null, "the refusal in words");

    const callsBefore = memory.calls.length;
    await served.start();
    await until(() => syncStatus() === "Local only" && !newButton().disabled, "the window reconnected");
    // The re-read after reconnecting went through the same socket after anything that could have been replayed.
    await until(() => memory.calls.slice(callsBefore).some((c) => c.method === "listDocuments"), "the list re-read");
    expect(memory.calls.filter((c) => c.method === "createDocument")).toEqual([]);
    expect(memory.docs.size).toBe(0);
  });
});
