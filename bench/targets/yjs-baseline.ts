/**
 * Target: Yjs through @y/websocket-server (bench/baselines/yjs-relay.ts) with y-websocket WebsocketProvider clients.
 * One provider (one WebSocket) per client per document, which is how y-websocket works. `disableBc: true` is
 * required: otherwise providers in one process exchange updates over BroadcastChannel and never use the relay.
 */
import { join } from "node:path";
import * as Y from "yjs";
import { WebsocketProvider } from "y-websocket";
import WebSocket from "ws";
import { BENCH_DIR, spawnTs } from "../lib/child.js";
import { withTimeout } from "../lib/wait.js";
import type { RelayClient, RelayTarget, TextDoc } from "./relay-target.js";

const SYNC_TIMEOUT_MS = 10_000;
/** y-websocket adds one process 'exit' listener per provider in Node; the throughput run opens 60 providers. */
const EXPECTED_PROVIDERS = 100;

function yTextDoc(doc: Y.Doc): TextDoc {
  const text = doc.getText("text");
  return {
    append(inserted) {
      text.insert(text.length, inserted);
    },
    length: () => text.length,
    onChange(listener) {
      text.observe(() => listener());
    },
  };
}

function connectYjsClient(url: string, label: string): RelayClient {
  if (process.getMaxListeners() < EXPECTED_PROVIDERS) process.setMaxListeners(EXPECTED_PROVIDERS);
  const providers: WebsocketProvider[] = [];
  const own = new Map<string, Y.Doc>();
  const open = async (name: string): Promise<Y.Doc> => {
    const doc = new Y.Doc();
    const provider = new WebsocketProvider(url, name, doc, {
      WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
      disableBc: true,
    });
    providers.push(provider);
    await withTimeout(
      new Promise<void>((resolve) => {
        if (provider.synced) resolve();
        else provider.once("sync", () => resolve());
      }),
      SYNC_TIMEOUT_MS,
      `${label} syncing ${name}`,
    );
    return doc;
  };
  return {
    async createDoc() {
      const name = `doc-${label}-${Math.random().toString(36).slice(2, 10)}`;
      own.set(name, await open(name));
      return name;
    },
    async openDoc(key) {
      return yTextDoc(await open(key));
    },
    ownDoc(key) {
      const doc = own.get(key);
      if (!doc) throw new Error(`${label} did not create ${key}`);
      return yTextDoc(doc);
    },
    async close() {
      for (const provider of providers) provider.destroy();
    },
  };
}

export const yjsBaseline: RelayTarget = {
  name: "yjs y-websocket",
  async start() {
    const child = spawnTs(join(BENCH_DIR, "baselines/yjs-relay.ts"));
    const { port } = (await child.ready) as { port: number };
    return { pid: child.pid, endpoint: { port }, stop: () => child.stop() };
  },
  connect: async (endpoint, label) => connectYjsClient(`ws://127.0.0.1:${endpoint.port}`, label),
};
