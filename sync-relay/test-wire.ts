/**
 * Test helpers for relay tests that speak the wire directly (no automerge-repo client): open a raw socket with a
 * token, join, collect frames and the close code/reason, and wait for conditions with a deadline.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { RELAY_PROTOCOL_VERSION, decodeFrame, encodeFrame, type WireFrame } from "../shared/sync-wire.js";

export function tempDir(prefix = "chopin-relay-"): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface RawClient {
  ws: WebSocket;
  frames: WireFrame[];
  closed: { code: number; reason: string } | null;
  refused: { status: number; body: string } | null;
  opened: boolean;
  send(frame: WireFrame | Uint8Array | string): void;
  join(peerId: string, extra?: Record<string, unknown>): Promise<WireFrame>;
}

export function rawClient(url: string, token: string | null, how: "header" | "query" = "header"): RawClient {
  const target = token && how === "query" ? `${url}?token=${encodeURIComponent(token)}` : url;
  const headers: Record<string, string> = token && how === "header" ? { authorization: `Bearer ${token}` } : {};
  const ws = new WebSocket(target, { headers, maxPayload: 64 * 1024 * 1024 });
  const client: RawClient = {
    ws,
    frames: [],
    closed: null,
    refused: null,
    opened: false,
    send(frame) {
      if (typeof frame === "string" || frame instanceof Uint8Array) ws.send(frame);
      else ws.send(encodeFrame(frame));
    },
    async join(peerId, extra = {}) {
      await waitFor(() => client.opened || client.closed !== null || client.refused !== null, "socket open");
      client.send({
        type: "join",
        senderId: peerId,
        peerMetadata: {},
        supportedProtocolVersions: [RELAY_PROTOCOL_VERSION],
        ...extra,
      } as WireFrame);
      await waitFor(() => client.frames.some((f) => f.type === "peer") || client.closed !== null, "peer frame or close");
      const peer = client.frames.find((f) => f.type === "peer");
      if (!peer) throw new Error(`join refused: ${JSON.stringify(client.closed)}`);
      return peer;
    },
  };
  ws.on("open", () => (client.opened = true));
  ws.on("message", (data) => {
    const decoded = decodeFrame(data as Buffer);
    if (decoded.ok) client.frames.push(decoded.frame);
  });
  ws.on("close", (code, reason) => (client.closed = { code, reason: reason.toString("utf8") }));
  ws.on("unexpected-response", (_req, res) => {
    let body = "";
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => (body += chunk));
    res.on("end", () => {
      client.refused = { status: res.statusCode ?? 0, body };
      ws.terminate();
    });
  });
  ws.on("error", () => undefined);
  return client;
}
