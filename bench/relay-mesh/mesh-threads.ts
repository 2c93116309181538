/**
 * The throughput mesh split across client threads: the suite's clients are the load generator, and one thread of 20
 * Automerge clients saturated a core before any relay but Yjs's did, so the closed-loop figure measured the clients.
 * Each thread runs one group (mesh.ts) on its own event loop; the relay still serves every client on its own socket.
 * This process's CPU (process.cpuUsage) covers all its threads.
 */
import { join } from "node:path";
import type { Worker } from "node:worker_threads";
import { BENCH_DIR } from "../lib/child.js";
import { startTsWorker } from "../lib/ts-worker.js";
import type { RelayEndpoint } from "../targets/relay-target.js";
import type { MeshLoad } from "./mesh.js";

/** Bounds the wait for a group to open, answer a count, or close: a stuck thread fails the row, not the run. */
const GROUP_REPLY_TIMEOUT_MS = 60_000;

export interface GroupSpec {
  target: string;
  endpoint: RelayEndpoint;
  clients: number;
  load: MeshLoad;
  /** Prefix of this group's client labels, unique across groups. */
  label: string;
}
export type GroupOrder = { type: "count" } | { type: "stop" };
export type GroupReport =
  | { type: "ready" }
  | { type: "count"; delivered: number }
  | { type: "closed" }
  | { type: "failed"; message: string };

export interface ThreadedMesh {
  /** Deliveries so far, summed over every group. */
  delivered(): Promise<number>;
  /** Closes every client, then ends the threads. */
  stop(): Promise<void>;
}

function nextReport(worker: Worker, type: GroupReport["type"]): Promise<GroupReport> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`a client thread did not report "${type}" in ${GROUP_REPLY_TIMEOUT_MS} ms`)), GROUP_REPLY_TIMEOUT_MS);
    const onMessage = (message: GroupReport) => {
      if (message.type === "failed") done(new Error(message.message));
      else if (message.type === type) done(undefined, message);
    };
    const onError = (error: Error) => done(error);
    const onExit = (code: number) => done(new Error(`a client thread exited (code ${code}) before "${type}"`));
    function done(error?: Error, message?: GroupReport) {
      clearTimeout(timer);
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      if (error) reject(error);
      else resolve(message!);
    }
    worker.on("message", onMessage).on("error", onError).on("exit", onExit);
  });
}

/** Starts `groups` threads of `clientsPerGroup` clients each, resolved once every group is open and loaded. */
export async function startThreadedMesh(
  target: string,
  endpoint: RelayEndpoint,
  groups: number,
  clientsPerGroup: number,
  load: MeshLoad,
): Promise<ThreadedMesh> {
  const workers: Worker[] = [];
  const exited = new Set<Worker>();
  const stop = async () => {
    await Promise.allSettled(
      workers.filter((w) => !exited.has(w)).map(async (w) => {
        const closed = nextReport(w, "closed");
        w.postMessage({ type: "stop" } satisfies GroupOrder);
        await closed;
      }),
    );
    await Promise.allSettled(workers.map((w) => w.terminate()));
  };
  try {
    for (let g = 0; g < groups; g++) {
      const spec: GroupSpec = { target, endpoint, clients: clientsPerGroup, load, label: `g${g}` };
      const worker = startTsWorker(join(BENCH_DIR, "relay-mesh/mesh-worker.ts"), spec);
      worker.once("exit", () => exited.add(worker));
      workers.push(worker);
    }
    await Promise.all(workers.map((w) => nextReport(w, "ready")));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    async delivered() {
      const counts = await Promise.all(
        workers.map(async (w) => {
          const reply = nextReport(w, "count");
          w.postMessage({ type: "count" } satisfies GroupOrder);
          return ((await reply) as { delivered: number }).delivered;
        }),
      );
      return counts.reduce((sum, n) => sum + n, 0);
    },
    stop,
  };
}
