/**
 * Worker thread: one group of the throughput mesh (mesh.ts) against a running relay. Opens the group, starts its load,
 * answers counts, and on "stop" closes every client before saying "closed". Any failure is reported as a message, so
 * the suite prints a row's reason instead of dying.
 */
import { parentPort, workerData } from "node:worker_threads";
import { relayTargetNamed } from "../targets/all.js";
import type { RelayClient } from "../targets/relay-target.js";
import { openMesh, startLoad, type Mesh } from "./mesh.js";
import { startThreadProfile, type ThreadProfile } from "../lib/thread-profile.js";
import type { GroupOrder, GroupReport, GroupSpec } from "./mesh-threads.js";

const spec = workerData as GroupSpec;
const port = parentPort!;
const report = (message: GroupReport) => port.postMessage(message);
const clients: RelayClient[] = [];
// Cleared before clients close, so no pending writer turn touches a closed client.
let running = true;
let mesh: Mesh | undefined;
// BENCH_CLIENT_CPU_PROF_DIR=<dir>: each client thread writes a CPU profile of its load (from ready to stop) there.
const profileDir = process.env.BENCH_CLIENT_CPU_PROF_DIR;
let profile: ThreadProfile | undefined;

async function closeAll(): Promise<void> {
  running = false;
  for (const c of clients) await c.close().catch(() => undefined);
}

port.on("message", (order: GroupOrder) => {
  if (order.type === "count") report({ type: "count", delivered: mesh?.delivered() ?? 0 });
  else {
    running = false;
    void (profile?.stop() ?? Promise.resolve()).then(closeAll).then(() => report({ type: "closed" }));
  }
});

try {
  const target = relayTargetNamed(spec.target);
  mesh = await openMesh(spec.clients, (label) => target.connect(spec.endpoint, label), clients, spec.label);
  if (profileDir) profile = await startThreadProfile(profileDir, `${spec.target.replace(/\W+/g, "-")}-${spec.load}-${spec.label}-${process.pid}`);
  startLoad(spec.load, mesh, () => running);
  report({ type: "ready" });
} catch (error) {
  await closeAll();
  report({ type: "failed", message: error instanceof Error ? error.message : String(error) });
}
