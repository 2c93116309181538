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
import { sleep, sleepUntil, waitFor } from "../lib/wait.js";
import { notAvailable, type Row, type Suite, type SuiteContext } from "../lib/report.js";
import { RelayNotAvailable, type RelayTarget, type RunningRelay } from "../targets/relay-target.js";
import { RELAY_TARGETS } from "../targets/all.js";
import { yjsBaseline } from "../targets/yjs-baseline.js";
import { automergeBaseline } from "../targets/automerge-baseline.js";
import { FIXED_LOAD_INTERVAL_MS, READERS_PER_DOC, THROUGHPUT_WINDOW, type MeshLoad } from "../relay-mesh/mesh.js";
import { startThreadedMesh } from "../relay-mesh/mesh-threads.js";
import { makeMarkdown } from "../lib/markdown-doc.js";

const PACED_INTERVAL_MS = 150;
const TYPING_INTERVAL_MS = 30;
const WARMUP_CHANGES = 5;
const DRAIN_TIMEOUT_MS = 15_000;
/** Clients and documents of the throughput mesh: one document written per client (relay-mesh/mesh.ts). */
const THROUGHPUT_CLIENTS = 20;
/**
 * The mesh's clients run in this many threads of this process: in one thread, 20 Automerge clients saturated a core
 * before our relay did (measured: client thread 91%, relay 63%), so the figure measured the load generator.
 */
const THROUGHPUT_CLIENT_THREADS = 2;
const THROUGHPUT_WARMUP_MS = 1000;
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
async function latency(
  target: RelayTarget,
  relay: RunningRelay,
  intervalMs: number,
  count: number,
  prefill = ".",
): Promise<number[]> {
  const writer = await target.connect(relay.endpoint, "writer");
  const reader = await target.connect(relay.endpoint, "reader");
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

/** Client threads the mesh is split across (BENCH_RELAY_CLIENT_THREADS overrides; it must divide THROUGHPUT_CLIENTS). */
function clientThreads(): number {
  const threads = Number(process.env.BENCH_RELAY_CLIENT_THREADS ?? THROUGHPUT_CLIENT_THREADS);
  if (!Number.isInteger(threads) || threads < 1 || THROUGHPUT_CLIENTS % threads !== 0) {
    throw new Error(`BENCH_RELAY_CLIENT_THREADS must divide ${THROUGHPUT_CLIENTS}`);
  }
  return threads;
}

/** Opens the mesh in client threads under `load`, waits out the warm-up, then meters deliveries and CPU for `durationMs`. */
async function measureMesh(
  target: RelayTarget,
  relay: RunningRelay,
  durationMs: number,
  load: MeshLoad,
  log: (m: string) => void,
): Promise<Throughput> {
  const threads = clientThreads();
  const mesh = await startThreadedMesh(target.name, relay.endpoint, threads, THROUGHPUT_CLIENTS / threads, load);
  try {
    log(`${THROUGHPUT_CLIENTS} clients, ${THROUGHPUT_CLIENTS} docs open in ${threads} client threads`);
    await sleep(THROUGHPUT_WARMUP_MS);
    const delivered0 = await mesh.delivered();
    const relayCpu = meterPid(relay.pid);
    const clientCpu = meterSelf();
    const t0 = performance.now();
    await sleep(durationMs);
    const delivered1 = await mesh.delivered();
    const elapsed = (performance.now() - t0) / 1000;
    return { deliveriesPerSec: (delivered1 - delivered0) / elapsed, relayCpu: relayCpu.stop(), clientCpu: clientCpu.stop() };
  } finally {
    await mesh.stop();
  }
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
      paced = summarize(await latency(target, relay, PACED_INTERVAL_MS, sizes.paced));
      log(`${target.name}: typing ${sizes.typing} changes every ${TYPING_INTERVAL_MS} ms`);
      typing = summarize(await latency(target, relay, TYPING_INTERVAL_MS, sizes.typing));
    }
    let large = skipped;
    let largeCpu = { clients: Number.NaN, relay: Number.NaN };
    if (phases.has("large")) {
      log(`${target.name}: typing ${sizes.large} changes every ${TYPING_INTERVAL_MS} ms into a ${LARGE_DOC_CHARS / 1000} KB document`);
      const clients = meterSelf();
      const relayCpu = meterPid(relay.pid);
      large = summarize(await latency(target, relay, TYPING_INTERVAL_MS, sizes.large, makeMarkdown(LARGE_DOC_CHARS)));
      largeCpu = { clients: clients.stop(), relay: relayCpu.stop() };
    }
    let tp = skippedMesh;
    if (phases.has("throughput")) {
      log(`${target.name}: throughput for ${sizes.throughputMs} ms`);
      tp = await measureMesh(target, relay, sizes.throughputMs, "closed-loop", (m) => log(`throughput: ${m}`));
    }
    let fixed = skippedMesh;
    if (phases.has("fixed")) {
      log(`${target.name}: fixed load (a change per doc every ${FIXED_LOAD_INTERVAL_MS} ms) for ${sizes.throughputMs} ms`);
      fixed = await measureMesh(target, relay, sizes.throughputMs, "fixed", (m) => log(`fixed load: ${m}`));
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
  const targets = RELAY_TARGETS.filter((t) => matches(t.name));
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
      `throughput: ${THROUGHPUT_CLIENTS} clients x ${THROUGHPUT_CLIENTS} docs in ${clientThreads()} client threads of this process (each thread a group of clients and the docs they write; every client on its own socket), 1 writer + ${READERS_PER_DOC} readers per doc, writers at most ${THROUGHPUT_WINDOW} changes ahead of their slowest reader, ${sizes.throughputMs} ms measured; a delivery = one writer change seen by one reader (batched changes count each)`,
      `fixed load: the same mesh with every writer appending one change every ${FIXED_LOAD_INTERVAL_MS} ms (open loop), so every target's relay does the same work`,
      "CPU % is of one core; clients CPU is this bench process (all 20 clients, every thread), the relay is its own process",
    ],
  };
};
