/**
 * Relay suite: change-to-peer latency (paced: a change every 150 ms; typing: every 30 ms, also into a 100 KB
 * document), throughput (20 clients x 20 documents, one writer and two readers per document, closed loop) and relay
 * CPU at a fixed load (the same mesh, open loop) for Yjs, bare automerge-repo and our relay (by the sync protocol
 * alone, and with the change fast path as the app core runs it), each relay in its own process, all clients in this
 * process (one clock for writer and reader).
 * Latency of change N = time the reader first sees text length >= N minus the time the writer started change N, so
 * changes a relay batches together are each charged their full wait.
 */
import { summarize } from "../lib/stats.js";
import { meterPid, meterSelf } from "../lib/cpu.js";
import { sleepUntil, waitFor } from "../lib/wait.js";
import { notAvailable, type Row, type Suite, type SuiteContext } from "../lib/report.js";
import { RelayNotAvailable, type RelayClient, type RelayTarget, type RunningRelay, type TextDoc } from "../targets/relay-target.js";
import { yjsBaseline } from "../targets/yjs-baseline.js";
import { automergeBaseline } from "../targets/automerge-baseline.js";
import { chopinRelay, chopinRelaySyncOnly } from "../targets/chopin-relay.js";
import { makeMarkdown } from "../lib/markdown-doc.js";

const PACED_INTERVAL_MS = 150;
const TYPING_INTERVAL_MS = 30;
const WARMUP_CHANGES = 5;
const DRAIN_TIMEOUT_MS = 15_000;
const THROUGHPUT_CLIENTS = 20;
const THROUGHPUT_DOCS = 20;
const READERS_PER_DOC = 2;
/** Changes a writer may have in flight ahead of its slowest reader (closed loop: the relay sets the pace). */
const THROUGHPUT_WINDOW = 20;
/** Changes a writer makes per turn of the event loop. */
const THROUGHPUT_BATCH = 5;
const THROUGHPUT_WARMUP_MS = 1000;
/**
 * Fixed load: each writer appends a change this often (20 docs x 2 readers at 100 ms = 400 deliveries/s, which every
 * Automerge target sustains here; at 40 ms bare automerge-repo fell behind), so relay CPU is compared at the same
 * work whatever the clients' speed: the closed-loop figure depends on the one client process, which is saturated for
 * every Automerge target.
 */
const FIXED_LOAD_INTERVAL_MS = 100;
/**
 * Typing into a large document: the same typing latency with a 100 KB Markdown document in place first. An Automerge 3
 * apply walked the whole document (~60 ms a call at this size, measured here; 2.2.9, which the app runs, ~1 ms), so
 * this shows what a receiver's applies cost a teammate's view of a real plan, which the small documents above cannot.
 */
const LARGE_DOC_CHARS = 100_000;

interface Sizes {
  paced: number;
  typing: number;
  large: number;
  throughputMs: number;
}

/** `prefill`: the document's text before measuring (one change), "." by default. */
async function latency(relay: RunningRelay, intervalMs: number, count: number, prefill = "."): Promise<number[]> {
  const writer = await relay.connect("writer");
  const reader = await relay.connect("reader");
  try {
    const key = await writer.createDoc();
    const wdoc = writer.ownDoc(key);
    wdoc.append(prefill);
    const rdoc = await reader.openDoc(key);
    await waitFor(() => rdoc.length() >= wdoc.length(), DRAIN_TIMEOUT_MS, "reader to catch up before measuring");
    const base = wdoc.length();
    const sentAt: number[] = [];
    const samples: number[] = [];
    let seen = rdoc.length();
    rdoc.onChange(() => {
      const now = performance.now();
      const len = rdoc.length();
      for (let i = seen + 1; i <= len; i++) {
        if (i > base + WARMUP_CHANGES && sentAt[i] !== undefined) samples.push(now - sentAt[i]);
      }
      seen = Math.max(seen, len);
    });
    const total = count + WARMUP_CHANGES;
    const start = performance.now();
    for (let k = 1; k <= total; k++) {
      await sleepUntil(start + k * intervalMs);
      sentAt[wdoc.length() + 1] = performance.now();
      wdoc.append("x");
    }
    await waitFor(() => seen >= base + total, DRAIN_TIMEOUT_MS, "reader to see every change");
    return samples;
  } finally {
    await writer.close();
    await reader.close();
  }
}

interface Throughput {
  deliveriesPerSec: number;
  relayCpu: number;
  clientCpu: number;
}

/** 20 clients, 20 documents each written by one client and read by two others, all open and synced. */
interface Mesh {
  writers: TextDoc[];
  /** Per document and reader: the text length that reader has seen. */
  seen: number[][];
  /** Deliveries so far: writer changes seen by readers (a batch of n changes counts n). */
  delivered(): number;
  /** Called after a reader of document d saw something new. */
  onDelivery(listener: (d: number) => void): void;
}

async function openMesh(clients: RelayClient[], relay: RunningRelay, log: (m: string) => void): Promise<Mesh> {
  for (let i = 0; i < THROUGHPUT_CLIENTS; i++) clients.push(await relay.connect(`c${i}`));
  const keys: string[] = [];
  for (let d = 0; d < THROUGHPUT_DOCS; d++) keys.push(await clients[d % THROUGHPUT_CLIENTS].createDoc());
  const writers = keys.map((key, d) => clients[d % THROUGHPUT_CLIENTS].ownDoc(key));
  for (const w of writers) w.append(".");
  const readers: TextDoc[][] = [];
  for (let d = 0; d < THROUGHPUT_DOCS; d++) {
    const list: TextDoc[] = [];
    for (let r = 1; r <= READERS_PER_DOC; r++) list.push(await clients[(d + r) % THROUGHPUT_CLIENTS].openDoc(keys[d]));
    readers.push(list);
  }
  log(`${THROUGHPUT_CLIENTS} clients, ${THROUGHPUT_DOCS} docs open`);
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

/** Runs `load` on a fresh mesh, waits out the warm-up, then meters deliveries and CPU for `durationMs`. */
async function measureMesh(
  relay: RunningRelay,
  durationMs: number,
  log: (m: string) => void,
  load: (mesh: Mesh, running: () => boolean) => void,
): Promise<Throughput> {
  const clients: RelayClient[] = [];
  // Cleared before clients close, so no pending writer turn touches a closed client.
  let running = true;
  try {
    const mesh = await openMesh(clients, relay, log);
    load(mesh, () => running);
    await new Promise((resolve) => setTimeout(resolve, THROUGHPUT_WARMUP_MS));
    const delivered0 = mesh.delivered();
    const relayCpu = meterPid(relay.pid);
    const clientCpu = meterSelf();
    const t0 = performance.now();
    await new Promise((resolve) => setTimeout(resolve, durationMs));
    const elapsed = (performance.now() - t0) / 1000;
    return {
      deliveriesPerSec: (mesh.delivered() - delivered0) / elapsed,
      relayCpu: relayCpu.stop(),
      clientCpu: clientCpu.stop(),
    };
  } finally {
    running = false;
    for (const c of clients) await c.close();
  }
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
  mesh.writers.forEach((w, d) => {
    const timer = setInterval(() => (running() ? w.append("x") : clearInterval(timer)), FIXED_LOAD_INTERVAL_MS);
  });
}

const PHASES = ["latency", "large", "throughput", "fixed"] as const;
type Phase = (typeof PHASES)[number];

async function measureTarget(
  target: RelayTarget,
  sizes: Sizes,
  phases: ReadonlySet<Phase>,
  log: (m: string) => void,
): Promise<Row> {
  let relay: RunningRelay;
  try {
    relay = await target.start();
  } catch (error) {
    if (error instanceof RelayNotAvailable) return notAvailable(target.name, error.message);
    throw error;
  }
  try {
    const skipped = { p50: Number.NaN, p99: Number.NaN };
    const skippedMesh: Throughput = { deliveriesPerSec: Number.NaN, relayCpu: Number.NaN, clientCpu: Number.NaN };
    let paced = skipped;
    let typing = skipped;
    if (phases.has("latency")) {
      log(`${target.name}: paced ${sizes.paced} changes every ${PACED_INTERVAL_MS} ms`);
      paced = summarize(await latency(relay, PACED_INTERVAL_MS, sizes.paced));
      log(`${target.name}: typing ${sizes.typing} changes every ${TYPING_INTERVAL_MS} ms`);
      typing = summarize(await latency(relay, TYPING_INTERVAL_MS, sizes.typing));
    }
    let large = skipped;
    let largeCpu = { clients: Number.NaN, relay: Number.NaN };
    if (phases.has("large")) {
      log(`${target.name}: typing ${sizes.large} changes every ${TYPING_INTERVAL_MS} ms into a ${LARGE_DOC_CHARS / 1000} KB document`);
      const clients = meterSelf();
      const relayCpu = meterPid(relay.pid);
      large = summarize(await latency(relay, TYPING_INTERVAL_MS, sizes.large, makeMarkdown(LARGE_DOC_CHARS)));
      largeCpu = { clients: clients.stop(), relay: relayCpu.stop() };
    }
    let tp = skippedMesh;
    if (phases.has("throughput")) {
      log(`${target.name}: throughput for ${sizes.throughputMs} ms`);
      tp = await measureMesh(relay, sizes.throughputMs, (m) => log(`throughput: ${m}`), saturate);
    }
    let fixed = skippedMesh;
    if (phases.has("fixed")) {
      log(`${target.name}: fixed load (a change per doc every ${FIXED_LOAD_INTERVAL_MS} ms) for ${sizes.throughputMs} ms`);
      fixed = await measureMesh(relay, sizes.throughputMs, (m) => log(`fixed load: ${m}`), steady);
    }
    return {
      name: target.name,
      metrics: {
        "paced p50 ms": paced.p50,
        "paced p99 ms": paced.p99,
        "typing p50 ms": typing.p50,
        "typing p99 ms": typing.p99,
        "100 KB typing p50 ms": large.p50,
        "100 KB typing p99 ms": large.p99,
        "100 KB relay CPU %": largeCpu.relay,
        "100 KB clients CPU %": largeCpu.clients,
        "deliveries/s": tp.deliveriesPerSec,
        "relay CPU %": tp.relayCpu,
        "clients CPU %": tp.clientCpu,
        "fixed-load deliveries/s": fixed.deliveriesPerSec,
        "fixed-load relay CPU %": fixed.relayCpu,
        "fixed-load clients CPU %": fixed.clientCpu,
      },
    };
  } catch (error) {
    return notAvailable(target.name, `failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await relay.stop();
  }
}

/** Relay CPU % per delivery/s of one measurement ("" = closed loop, "fixed-load "). */
function perDelivery(row: Row, prefix: string): number {
  return (row.metrics[`${prefix}relay CPU %`] as number) / (row.metrics[`${prefix}deliveries/s`] as number);
}

function ratios(rows: Row[], baseline: Row): Row[] {
  return rows
    .filter((row) => row.notAvailable === undefined)
    .map((row) => {
      const x = (metric: string): number => (row.metrics[metric] as number) / (baseline.metrics[metric] as number);
      return {
        name: row.name,
        metrics: {
          "paced p50 x": x("paced p50 ms"),
          "typing p50 x": x("typing p50 ms"),
          "typing p99 x": x("typing p99 ms"),
          "100 KB typing p50 x": x("100 KB typing p50 ms"),
          "deliveries/s x": x("deliveries/s"),
          "relay CPU per delivery x": perDelivery(row, "") / perDelivery(baseline, ""),
          "fixed-load relay CPU per delivery x": perDelivery(row, "fixed-load ") / perDelivery(baseline, "fixed-load "),
        },
      };
    });
}

export const relaySuite: Suite = async (ctx: SuiteContext) => {
  const sizes: Sizes = ctx.quick
    ? { paced: 20, typing: 60, large: 40, throughputMs: 3000 }
    : { paced: 200, typing: 500, large: 200, throughputMs: 10_000 };
  const rows: Row[] = [];
  // BENCH_RELAY_ONLY=<name substring> (or =<exact name>) measures matching targets only (profiling, iterating);
  // reports use all.
  const only = process.env.BENCH_RELAY_ONLY;
  const matches = (name: string): boolean => !only || (only.startsWith("=") ? name === only.slice(1) : name.includes(only));
  const targets = [yjsBaseline, automergeBaseline, chopinRelaySyncOnly, chopinRelay].filter((t) => matches(t.name));
  // BENCH_RELAY_PHASES=latency,large,throughput,fixed (any of them) measures those phases only; reports use all.
  const phases = new Set((process.env.BENCH_RELAY_PHASES ?? PHASES.join(",")).split(",") as Phase[]);
  const unknown = [...phases].filter((p) => !PHASES.includes(p));
  if (unknown.length > 0) throw new Error(`BENCH_RELAY_PHASES: unknown phase ${unknown.join(", ")} (known: ${PHASES.join(", ")})`);
  for (const target of targets) rows.push(await measureTarget(target, sizes, phases, ctx.log));
  const tables = [{ title: "change-to-peer latency and throughput (relay in its own process, loopback)", rows }];
  for (const base of [yjsBaseline.name, automergeBaseline.name]) {
    const row = rows.find((r) => r.name === base && r.notAvailable === undefined);
    if (row) tables.push({ title: `ratios against ${base} (same run)`, rows: ratios(rows, row) });
  }
  return {
    suite: "relay",
    tables,
    notes: [
      `paced: ${sizes.paced} changes, one every ${PACED_INTERVAL_MS} ms; typing: ${sizes.typing} changes, one every ${TYPING_INTERVAL_MS} ms; ${WARMUP_CHANGES} warm-up changes not counted`,
      `100 KB typing: ${sizes.large} changes, one every ${TYPING_INTERVAL_MS} ms, into a document holding ${LARGE_DOC_CHARS.toLocaleString("en-US")} characters of Markdown; relay and clients CPU (this bench process: writer and reader) over the whole phase, setup included`,
      `throughput: ${THROUGHPUT_CLIENTS} clients x ${THROUGHPUT_DOCS} docs, 1 writer + ${READERS_PER_DOC} readers per doc, writers at most ${THROUGHPUT_WINDOW} changes ahead of their slowest reader, ${sizes.throughputMs} ms measured; a delivery = one writer change seen by one reader (batched changes count each)`,
      `fixed load: the same mesh with every writer appending one change every ${FIXED_LOAD_INTERVAL_MS} ms (open loop), so every target's relay does the same work`,
      "CPU % is of one core; clients CPU is this bench process (all 20 clients), the relay is its own process",
    ],
  };
};
