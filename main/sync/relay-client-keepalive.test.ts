/**
 * The client end of relay liveness, with the adapter's defaults: a relay socket that brings nothing (no ping, no
 * frame) for RELAY_CLIENT_SILENT_INTERVALS x RELAY_KEEPALIVE_MS is cut (a dead TCP link raises no error by itself)
 * and the adapter goes offline with a retry scheduled; not a millisecond sooner, and every ping starts the count
 * again. Real sockets on 127.0.0.1 with fake setTimeout/setInterval, so the bound is hit to the millisecond; waits
 * for socket I/O spin on setImmediate (not faked) with a real deadline.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { PeerId } from "@automerge/automerge-repo";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { RELAY_KEEPALIVE_MS } from "../../shared/limits.js";
import { RELAY_CLIENT_SILENT_INTERVALS } from "../util/limits.js";
import { RELAY_PROTOCOL_VERSION, decodeFrame, encodeFrame } from "../../shared/sync-wire.js";
import { RelayClientAdapter } from "./relay-client-adapter.js";
import { untilImmediate as until, flushIo } from "../../shared/test-immediate.js";

const SILENCE_MS = RELAY_KEEPALIVE_MS * RELAY_CLIENT_SILENT_INTERVALS;

let http: Server;
let wss: WebSocketServer;
let accepted: WebSocket[];
let adapter: RelayClientAdapter | null;

/** A relay that answers every join with a peer frame and then stays silent: it never pings on its own. */
beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
  accepted = [];
  adapter = null;
  wss = new WebSocketServer({ noServer: true });
  http = createServer();
  http.on("upgrade", (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      accepted.push(ws);
      ws.on("error", () => undefined);
      ws.on("message", (data) => {
        const decoded = decodeFrame(new Uint8Array(data as Buffer));
        if (!decoded.ok || decoded.frame.type !== "join") return;
        ws.send(
          encodeFrame({
            type: "peer",
            senderId: "relay",
            targetId: decoded.frame.senderId,
            peerMetadata: {},
            selectedProtocolVersion: RELAY_PROTOCOL_VERSION,
          }),
        );
      });
    }),
  );
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
});

afterEach(async () => {
  adapter?.disconnect();
  vi.useRealTimers();
  for (const ws of accepted) ws.terminate();
  wss.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});



describe("RelayClientAdapter keepalive (defaults)", () => {
  it("cuts a relay socket silent for RELAY_CLIENT_SILENT_INTERVALS x RELAY_KEEPALIVE_MS, not a millisecond sooner; a ping restarts the count", async () => {
    const url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/`;
    adapter = new RelayClientAdapter({ url, token: "t", peerId: "alice:laptop" });
    adapter.connect("alice:laptop" as PeerId);
    await until(() => adapter!.state === "connected", "the handshake completes");
    const relaySide = accepted[0];

    vi.advanceTimersByTime(SILENCE_MS - 1);
    await flushIo();
    expect(adapter.state).toBe("connected");
    expect(relaySide.readyState).toBe(WebSocket.OPEN);

    // A ping (answered by ws with a pong) is a sign of life: the silence counts again from here.
    let pongs = 0;
    relaySide.on("pong", () => pongs++);
    relaySide.ping();
    await until(() => pongs === 1, "the client answers the ping");
    vi.advanceTimersByTime(SILENCE_MS - 1);
    await flushIo();
    expect(adapter.state).toBe("connected");
    expect(relaySide.readyState).toBe(WebSocket.OPEN);

    vi.advanceTimersByTime(1);
    await until(() => adapter!.state === "offline", "the silent link is cut");
    await until(() => relaySide.readyState === WebSocket.CLOSED, "the relay side sees the cut");
    expect(adapter.lastError?.code).toBe("relay-unavailable");
    // Cut, not given up: the next attempt is scheduled.
    expect(adapter.nextRetryAt).not.toBeNull();
  });
});
