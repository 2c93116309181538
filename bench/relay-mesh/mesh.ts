/**
 * One group of the throughput mesh: `clients` clients and as many documents, document d written by client d and read
 * by the next READERS_PER_DOC clients (mod the group), every client on its own connection to the relay. The load
 * functions drive the writers: closed loop (each writer a bounded window ahead of its slowest reader) or open loop (one
 * change per writer per interval). A group runs in one client thread (mesh-worker.ts).
 */
import type { RelayClient, TextDoc } from "../targets/relay-target.js";

export const READERS_PER_DOC = 2;
/** Changes a writer may have in flight ahead of its slowest reader (closed loop: the relay sets the pace). */
export const THROUGHPUT_WINDOW = 20;
/** Changes a writer makes per turn of the event loop. */
const THROUGHPUT_BATCH = 5;
/**
 * Fixed load: each writer appends a change this often (20 docs x 2 readers at 100 ms = 400 deliveries/s, which every
 * Automerge target sustains here; at 40 ms bare automerge-repo fell behind), so relay CPU is compared at the same
 * work whatever the clients' speed.
 */
export const FIXED_LOAD_INTERVAL_MS = 100;

export type MeshLoad = "closed-loop" | "fixed";

export interface Mesh {
  writers: TextDoc[];
  /** Per document and reader: the text length that reader has seen. */
  seen: number[][];
  /** Deliveries so far: writer changes seen by readers (a batch of n changes counts n). */
  delivered(): number;
  /** Called after a reader of document d saw something new. */
  onDelivery(listener: (d: number) => void): void;
}

/** Connects the group's clients (pushed onto `clients` as they connect, so the caller can close them on failure). */
export async function openMesh(
  size: number,
  connect: (label: string) => Promise<RelayClient>,
  clients: RelayClient[],
  label: string,
): Promise<Mesh> {
  for (let i = 0; i < size; i++) clients.push(await connect(`${label}c${i}`));
  const keys: string[] = [];
  for (let d = 0; d < size; d++) keys.push(await clients[d].createDoc());
  const writers = keys.map((key, d) => clients[d].ownDoc(key));
  for (const w of writers) w.append(".");
  const readers: TextDoc[][] = [];
  for (let d = 0; d < size; d++) {
    const list: TextDoc[] = [];
    for (let r = 1; r <= READERS_PER_DOC; r++) list.push(await clients[(d + r) % size].openDoc(keys[d]));
    readers.push(list);
  }
  let delivered = 0;
  const listeners: ((d: number) => void)[] = [];
  const seen = readers.map((list) => list.map((r) => r.length()));
  readers.forEach((list, d) =>
    list.forEach((r, i) =>
      r.onChange(() => {
        const len = r.length();
        if (len <= seen[d][i]) return;
        delivered += len - seen[d][i];
        seen[d][i] = len;
        for (const listener of listeners) listener(d);
      }),
    ),
  );
  return { writers, seen, delivered: () => delivered, onDelivery: (listener) => listeners.push(listener) };
}

/** Closed loop: each writer runs at most THROUGHPUT_WINDOW changes ahead of its slowest reader. */
function saturate(mesh: Mesh, running: () => boolean): void {
  const { writers, seen } = mesh;
  const scheduled = writers.map(() => false);
  const slowest = (d: number) => Math.min(...seen[d]);
  const pump = (d: number) => {
    if (scheduled[d] || !running()) return;
    scheduled[d] = true;
    setImmediate(() => {
      scheduled[d] = false;
      const w = writers[d];
      for (let k = 0; k < THROUGHPUT_BATCH && running() && w.length() - slowest(d) < THROUGHPUT_WINDOW; k++) {
        w.append("x");
      }
    });
  };
  mesh.onDelivery(pump);
  writers.forEach((_, d) => pump(d));
}

/** Open loop: every writer appends one change every FIXED_LOAD_INTERVAL_MS, whatever the readers see. */
function steady(mesh: Mesh, running: () => boolean): void {
  mesh.writers.forEach((w) => {
    const timer = setInterval(() => (running() ? w.append("x") : clearInterval(timer)), FIXED_LOAD_INTERVAL_MS);
  });
}

export function startLoad(load: MeshLoad, mesh: Mesh, running: () => boolean): void {
  if (load === "closed-loop") saturate(mesh, running);
  else steady(mesh, running);
}
