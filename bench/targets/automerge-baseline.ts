/** Target: the bare automerge-repo relay (bench/baselines/automerge-relay.ts) with stock WebSocketClientAdapter clients. */
import { join } from "node:path";
import { WebSocketClientAdapter } from "@automerge/automerge-repo-network-websocket";
import { BENCH_DIR, spawnTs } from "../lib/child.js";
import { connectAutomergeClient } from "./automerge-client.js";
import type { RelayTarget } from "./relay-target.js";

export const automergeBaseline: RelayTarget = {
  name: "bare automerge-repo",
  async start() {
    const child = spawnTs(join(BENCH_DIR, "baselines/automerge-relay.ts"));
    const { port } = (await child.ready) as { port: number };
    return { pid: child.pid, endpoint: { port }, stop: () => child.stop() };
  },
  connect: (endpoint, label) =>
    connectAutomergeClient(new WebSocketClientAdapter(`ws://127.0.0.1:${endpoint.port}`, 1000), label),
};
