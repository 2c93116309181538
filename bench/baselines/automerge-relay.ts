/**
 * Baseline relay: bare automerge-repo as its sync-server example runs it (stock WebSocketServerAdapter, in-memory
 * Repo, `sharePolicy: async () => false`, no auth, no storage). Runs in its own process so its CPU is its own.
 * Prints `BENCH_READY {"port":N}`; stops on SIGTERM.
 */
import { WebSocketServer } from "ws";
import { Repo, type PeerId } from "@automerge/automerge-repo";
import { WebSocketServerAdapter } from "@automerge/automerge-repo-network-websocket";
import { announceReady, onTerminate } from "../lib/child.js";

const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
const adapter = new WebSocketServerAdapter(wss as unknown as ConstructorParameters<typeof WebSocketServerAdapter>[0]);
const repo = new Repo({ network: [adapter], peerId: "baseline-relay" as PeerId, sharePolicy: async () => false });

onTerminate(async () => {
  await repo.shutdown();
  wss.close();
});
const address = wss.address();
announceReady({ port: typeof address === "object" && address ? address.port : 0 });
