/**
 * MCP suite: read_document round trip vs a no-op tool on the same server (the server in its own process, the
 * client here), sequential calls over Streamable HTTP. The difference is what reading a plan costs an agent beyond
 * the protocol itself. Server CPU per call comes from /proc.
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { BENCH_DIR, spawnTs } from "../lib/child.js";
import { processCpuSeconds } from "../lib/cpu.js";
import { summarize } from "../lib/stats.js";
import type { Row, Suite } from "../lib/report.js";

const WARMUP_CALLS = 20;

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
      tables: [{ title: "MCP tool round trip, Streamable HTTP (stateless, JSON responses, like main/mcp), server in its own process", rows }],
      notes: [
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
