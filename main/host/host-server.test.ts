/**
 * Edges of host mode's sockets over a real core on 127.0.0.1: the per-launch secret's size (HOST_SECRET_BYTES), the
 * largest /api frame (MAX_BRIDGE_FRAME_BYTES) and the largest /sync frame (MAX_HOST_SYNC_FRAME_BYTES). A frame at
 * the bound is taken in; one byte more closes the socket with 1009 and the core carries on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { HOST_SECRET_BYTES, MAX_BRIDGE_FRAME_BYTES, MAX_HOST_SYNC_FRAME_BYTES } from "../util/limits.js";
import { createAppCore } from "../core/app-core.js";
import type { AppCore } from "../core/types.js";
import { encode } from "cbor-x";
import { CLOSE_CODES } from "../../shared/sync-wire.js";
import { tempDir } from "../sync/test-helpers.js";
import { startHostServer, type HostServer } from "./host-server.js";
import { waitFor } from "../../shared/wait-for.js";

let dir: { path: string; remove(): void };
let core: AppCore;
let host: HostServer;
beforeAll(async () => {
  dir = tempDir("chopin-host-");
  core = await createAppCore({ dataDir: dir.path, mcpPort: 0 });
  host = await startHostServer({ core, staticDir: dir.path, port: 0 });
});
afterAll(async () => {
  await host?.close();
  await core?.close();
  dir?.remove();
});

interface Probe {
  ws: WebSocket;
  messages: string[];
  closed: { code: number } | null;
  refused: number | null;
  open: Promise<boolean>;
}

function probe(path: "/api" | "/sync", secret = host.secret): Probe {
  const origin = `http://127.0.0.1:${host.port}`;
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}${path}?secret=${encodeURIComponent(secret)}`, {
    origin,
    maxPayload: 2 * MAX_HOST_SYNC_FRAME_BYTES,
  });
  const p: Probe = { ws, messages: [], closed: null, refused: null, open: Promise.resolve(false) };
  p.open = new Promise((resolve) => {
    ws.on("open", () => resolve(true));
    ws.on("unexpected-response", (_req, res) => {
      p.refused = res.statusCode ?? 0;
      resolve(false);
    });
    ws.on("error", () => resolve(false));
  });
  ws.on("message", (data) => p.messages.push(data.toString()));
  ws.on("close", (code) => (p.closed = { code }));
  return p;
}

/** A JSON call frame padded with spaces to exactly `bytes` UTF-8 bytes. */
function callFrame(id: number, bytes: number): string {
  const json = JSON.stringify({ id, method: "getSyncStatus", args: [] });
  return json.slice(0, -1) + " ".repeat(bytes - json.length) + "}";
}

describe("host server bounds", () => {
  it("mints a secret of HOST_SECRET_BYTES random bytes that opens the sockets; one character less is refused", async () => {
    expect(Buffer.from(host.secret, "base64url")).toHaveLength(HOST_SECRET_BYTES);
    expect(host.url).toContain(`#secret=${host.secret}`);
    const ok = probe("/api");
    expect(await ok.open).toBe(true);
    ok.ws.close();
    const short = probe("/api", host.secret.slice(0, -1));
    expect(await short.open).toBe(false);
    expect(short.refused).toBe(401);
  });

  it("/api answers a MAX_BRIDGE_FRAME_BYTES frame and closes with 1009 on one byte more", async () => {
    const p = probe("/api");
    expect(await p.open).toBe(true);
    const atBound = callFrame(1, MAX_BRIDGE_FRAME_BYTES);
    expect(Buffer.byteLength(atBound)).toBe(MAX_BRIDGE_FRAME_BYTES);
    p.ws.send(atBound);
    await waitFor(() => p.messages.some((m) => JSON.parse(m).id === 1), "the at-bound call is answered");
    expect(JSON.parse(p.messages.find((m) => JSON.parse(m).id === 1)!)).toMatchObject({ id: 1, ok: true });
    p.ws.send(callFrame(2, MAX_BRIDGE_FRAME_BYTES + 1));
    await waitFor(() => p.closed !== null, "the oversized frame closes the socket");
    expect(p.closed!.code).toBe(1009);
    expect(p.messages.some((m) => JSON.parse(m).id === 2)).toBe(false);
  });

  it("/sync takes a MAX_HOST_SYNC_FRAME_BYTES frame in and closes with 1009 on one byte more", async () => {
    // Not CBOR: the guarded adapter closes the socket (1007) when it cannot read a frame it received.
    const atBound = probe("/sync");
    expect(await atBound.open).toBe(true);
    atBound.ws.send(Buffer.alloc(MAX_HOST_SYNC_FRAME_BYTES, 0xff));
    await waitFor(() => atBound.closed !== null, "the at-bound frame is read", 30_000);
    expect(atBound.closed!.code).not.toBe(1009);
    const over = probe("/sync");
    expect(await over.open).toBe(true);
    over.ws.send(Buffer.alloc(MAX_HOST_SYNC_FRAME_BYTES + 1, 0xff));
    await waitFor(() => over.closed !== null, "the oversized frame closes the socket", 30_000);
    expect(over.closed!.code).toBe(1009);
    // The core is unharmed: a fresh API socket is still served.
    const after = probe("/api");
    expect(await after.open).toBe(true);
    after.ws.send(callFrame(3, 100));
    await waitFor(() => after.messages.length > 0, "a later call is answered");
    after.ws.close();
  });

  it.each([
    ["CBOR null", Buffer.from("f6", "hex")],
    ["CBOR undefined", Buffer.from("f7", "hex")],
    ["a CBOR array", Buffer.from(encode([1, 2]))],
    ["a map without a type", Buffer.from(encode({ senderId: "w", targetId: "c" }))],
    ["a sync message without a target", Buffer.from(encode({ type: "sync", senderId: "w", documentId: "x", data: new Uint8Array(1) }))],
    ["a join whose versions are not strings", Buffer.from(encode({ type: "join", senderId: "w", supportedProtocolVersions: [1] }))],
  ])("/sync closes the socket on %s with 1007 and a reason, and the core carries on", async (_name, frame) => {
    const p = probe("/sync");
    let reason = "";
    p.ws.on("close", (_code, why) => (reason = why.toString()));
    expect(await p.open).toBe(true);
    p.ws.send(frame);
    await waitFor(() => p.closed !== null, "the malformed frame closes the socket");
    expect(p.closed!.code).toBe(CLOSE_CODES.malformed);
    expect(reason).not.toBe("");
    const after = probe("/api");
    expect(await after.open).toBe(true);
    after.ws.send(callFrame(4, 100));
    await waitFor(() => after.messages.length > 0, "a later call is answered");
    after.ws.close();
  });
});
