/**
 * Test helpers for relay tests that speak the wire directly (no automerge-repo client): open a raw socket with a
 * token, join, collect frames and the close code/reason, and wait for conditions with a deadline.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { next as A } from "@automerge/automerge";
import WebSocket from "ws";
import { RELAY_PROTOCOL_VERSION, decodeFrame, encodeFrame, type WireFrame } from "../shared/sync-wire.js";
import { waitFor } from "../shared/wait-for.js";

export function tempDir(prefix = "chopin-relay-"): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
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

/** One document synced by hand over a raw socket with Automerge's sync protocol, as a client Repo would. */
export class RawDocSync<T> {
  doc: A.Doc<T>;
  #state = A.initSyncState();
  #seen = 0;

  constructor(
    private readonly client: RawClient,
    private readonly peerId: string,
    private readonly relayPeerId: string,
    readonly documentId: string,
    doc: A.Doc<T>,
  ) {
    this.doc = doc;
  }

  /** Exchanges sync messages until the relay says it has every change this copy has. */
  async push(): Promise<void> {
    const mine = () => JSON.stringify([...A.getHeads(this.doc)].sort());
    await waitFor(() => {
      this.#exchange();
      return JSON.stringify([...(this.#state.theirHeads ?? [])].sort()) === mine();
    }, "the relay has every change of this copy");
  }

  /** Exchanges sync messages until `done` holds for this copy (what the relay sends is taken in). */
  async pull(done: (doc: A.Doc<T>) => boolean, what: string): Promise<void> {
    await waitFor(() => {
      this.#exchange();
      return done(this.doc);
    }, what);
  }

  #exchange(): void {
    for (const f of this.client.frames.slice(this.#seen)) {
      if (f.type !== "sync" || (f as { documentId?: string }).documentId !== this.documentId) continue;
      [this.doc, this.#state] = A.receiveSyncMessage(this.doc, this.#state, new Uint8Array((f as { data: Uint8Array }).data));
    }
    this.#seen = this.client.frames.length;
    let message: Uint8Array | null;
    [this.#state, message] = A.generateSyncMessage(this.doc, this.#state);
    if (message) {
      const frame = { type: "sync", senderId: this.peerId, targetId: this.relayPeerId, documentId: this.documentId, data: message };
      this.client.send(frame as WireFrame);
    }
  }
}
