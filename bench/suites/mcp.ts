/**
 * MCP suite: read_document round trip vs a no-op tool on the same server (the server in its own process, the
 * client here), sequential calls over Streamable HTTP. The difference is what reading a plan costs an agent beyond
 * the protocol itself. Then update_document on the product server: a 100 KB plan with one line changed, a revision
 * scattered over it, and its whole body rewritten (each on its own plan, alternating between two bodies), since an
 * agent's full-body update must stay fast whatever it sends. Server CPU per call comes from /proc.
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { BENCH_DIR, spawnTs } from "../lib/child.js";
import { processCpuSeconds } from "../lib/cpu.js";
import { summarize } from "../lib/stats.js";
import type { Row, Suite } from "../lib/report.js";
import { updateCases } from "../mcp/update-bodies.js";

const WARMUP_CALLS = 20;
/** The update rows' plan size, as the read rows' document (bench/mcp/server.ts). */
const UPDATE_DOC_CHARS = 100_000;
/** Calls per update row (each persists a 100 KB-scale change), and the time after which a row stops early. */
const UPDATE_CALLS = { quick: 5, full: 20 };
const UPDATE_ROW_MAX_MS = 60_000;
/** One update may take far longer than the SDK's 60 s default (A.updateText took minutes on a rewrite). */
const UPDATE_CALL_TIMEOUT_MS = 30 * 60_000;

interface Target {
  row: string;
  client: Client;
  tool: string;
  args: Record<string, unknown>;
}

export const mcpSuite: Suite = async (ctx) => {
  const calls = ctx.quick ? 100 : 1000;
  const child = spawnTs(join(BENCH_DIR, "mcp/server.ts"));
  const clients: Client[] = [];
  try {
    const ready = (await child.ready) as { benchUrl: string; productUrl: string; token: string; documentId: string };
    const connect = async (url: string, headers: Record<string, string> = {}) => {
      const client = new Client({ name: "chopin-bench", version: "0.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      clients.push(client);
      return client;
    };
    const bench = await connect(ready.benchUrl);
    const product = await connect(ready.productUrl, { authorization: `Bearer ${ready.token}` });
    const id = ready.documentId;
    const targets: Target[] = [
      { row: "no-op tool (bench-local server)", client: bench, tool: "noop", args: {} },
      { row: "read_document, product tool code (bench-local server)", client: bench, tool: "read_document", args: { id } },
      { row: "list_documents, 1 doc (product server)", client: product, tool: "list_documents", args: {} },
      { row: "read_document (product server)", client: product, tool: "read_document", args: { id } },
    ];
    const first = await product.callTool({ name: "read_document", arguments: { id } });
    if (first.isError) throw new Error(`read_document failed: ${JSON.stringify(first.content).slice(0, 300)}`);
    const bytes = JSON.stringify(first).length;
    for (let i = 0; i < WARMUP_CALLS; i++) for (const t of targets) await t.client.callTool({ name: t.tool, arguments: t.args });
    ctx.log(`${calls} calls per row, interleaved, sequential`);
    const samples = targets.map(() => [] as number[]);
    const cpu = targets.map(() => 0);
    for (let i = 0; i < calls; i++) {
      for (const [k, t] of targets.entries()) {
        const c0 = processCpuSeconds(child.pid);
        const t0 = performance.now();
        const result = await t.client.callTool({ name: t.tool, arguments: t.args });
        samples[k].push(performance.now() - t0);
        cpu[k] += processCpuSeconds(child.pid) - c0;
        if (result.isError) throw new Error(`${t.tool} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
      }
    }
    const updateRows = await measureUpdates(product, child.pid, ctx.quick ? UPDATE_CALLS.quick : UPDATE_CALLS.full, ctx.log);
    const noop = summarize(samples[0]);
    const rows: Row[] = targets.map((t, k) => {
      const s = summarize(samples[k]);
      return {
        name: t.row,
        metrics: {
          calls: s.n,
          "p50 ms": s.p50,
          "p95 ms": s.p95,
          "p50 x no-op": s.p50 / noop.p50,
          "server CPU ms/call": (cpu[k] / s.n) * 1000,
        },
      };
    });
    return {
      suite: "mcp",
      tables: [
        { title: "MCP tool round trip, Streamable HTTP (stateless, JSON responses, like main/mcp), server in its own process", rows },
        { title: "update_document round trip (product server, answered once on disk)", rows: updateRows },
      ],
      notes: [
        `update rows: each on its own ${UPDATE_DOC_CHARS / 1000} K-char plan, alternating between two bodies, after the read rows; at most ${UPDATE_CALLS.full} calls (${UPDATE_CALLS.quick} with --quick) and no new call after ${UPDATE_ROW_MAX_MS / 1000} s; "rewritten entirely" shifts every letter (no line stays the same, the layout does)`,
        `both servers share one DocumentService (main/documents/) over automerge-repo + SQLite; the document is 100 K chars of Markdown and read_document returns ${Math.round(bytes / 1024)} KB of JSON`,
        "main/mcp exports no way to register a no-op tool, so the no-op floor comes from a bench-local server in the same transport mode; the product server adds its Host/Origin/token guard",
        "server CPU per call is read from /proc around each call (clock-tick resolution: meaningful only as an average)",
      ],
    };
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await child.stop();
  }
};

/** update_document rows: sequential calls, each replacing the body of its own plan with the other of two bodies. */
async function measureUpdates(client: Client, pid: number, calls: number, log: (message: string) => void): Promise<Row[]> {
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: UPDATE_CALL_TIMEOUT_MS });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
    return result.structuredContent as Record<string, unknown>;
  };
  const cases = updateCases(UPDATE_DOC_CHARS);
  const plans = [];
  for (const [k, c] of cases.entries()) {
    const created = (await call("create_document", { idempotencyKey: `bench-update-${k}-${Date.now()}`, title: `Update ${k}`, markdown: c.bodies[0] }))
      .document as { id: string; revision: string };
    plans.push({ ...c, id: created.id, revision: created.revision, calls: 0 });
  }
  const rows: Row[] = [];
  for (const plan of plans) {
    const samples: number[] = [];
    let cpu = 0;
    const started = performance.now();
    while (samples.length < calls && (samples.length === 0 || performance.now() - started < UPDATE_ROW_MAX_MS)) {
      const markdown = plan.bodies[(samples.length + 1) % 2];
      const c0 = processCpuSeconds(pid);
      const t0 = performance.now();
      const answer = await call("update_document", { id: plan.id, revision: plan.revision, markdown, idempotencyKey: `bench-${plan.id}-${samples.length}` });
      samples.push(performance.now() - t0);
      cpu += processCpuSeconds(pid) - c0;
      plan.revision = answer.revision as string;
    }
    log(`${plan.row}: ${samples.length} calls`);
    const s = summarize(samples);
    rows.push({
      name: plan.row,
      metrics: { calls: String(s.n), "p50 ms": s.p50, "p95 ms": s.p95, "max ms": s.max, "server CPU ms/call": (cpu / s.n) * 1000 },
    });
  }
  return rows;
}
