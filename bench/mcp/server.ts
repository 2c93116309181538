/**
 * Child process: two MCP servers over ONE DocumentService (main/documents/) holding a 100 KB plan document in a real
 * automerge-repo over SQLite (the same local database layout as the app core):
 * - the product's server (main/mcp startMcpServer: stateless, JSON responses, guard + bearer token), and
 * - a bench-local server with the SAME transport mode carrying a `noop` tool and `read_document` implemented by the
 *   product's own tool code (main/mcp/tools.ts callTool). main/mcp exports no way to add a no-op tool, so the
 *   protocol floor is measured here, beside the real read_document.
 * Prints `BENCH_READY {"benchUrl","productUrl","token","documentId"}`; stops on SIGTERM and removes its data.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Repo, type PeerId } from "@automerge/automerge-repo";
import type { ChopinEvents } from "../../shared/api.js";
import { SqliteStorageAdapter } from "../../shared/node/sqlite-storage-adapter.js";
import { TypedEmitter } from "../../main/util/typed-emitter.js";
import { openLocalDb } from "../../main/store/local-db.js";
import { DocumentService } from "../../main/documents/document-service.js";
import { startMcpServer } from "../../main/mcp/server.js";
import { callTool } from "../../main/mcp/tools.js";
import { ReplayLog } from "../../main/mcp/replay.js";
import { announceReady, onTerminate } from "../lib/child.js";
import { makeMarkdown } from "../lib/markdown-doc.js";

const DOC_CHARS = 100_000;

const dir = mkdtempSync(join(tmpdir(), "chopin-bench-mcp-"));
const db = openLocalDb(dir);
const repo = new Repo({ storage: new SqliteStorageAdapter(db), network: [], peerId: "bench-mcp" as PeerId });
const documents = await DocumentService.open({
  repo,
  db,
  events: new TypedEmitter<ChopinEvents>(),
  displayName: () => "Bench",
});
const detail = await documents.createDocumentWith({ title: "Bench plan", markdown: makeMarkdown(DOC_CHARS), shared: false });
await repo.flush();

const token = randomBytes(24).toString("hex");
const product = await startMcpServer({ documents, db, port: 0, token });

const replays = new ReplayLog(db);
const benchTools = [
  { name: "noop", description: "does nothing", inputSchema: { type: "object" as const, properties: {} } },
  { name: "read_document", description: "the product's read_document", inputSchema: { type: "object" as const, properties: { id: { type: "string" } } } },
];
// Same transport mode as the product server: a fresh protocol server + stateless JSON transport per POST.
async function handleBench(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== "POST") {
    res.writeHead(405).end();
    return;
  }
  const server = new Server({ name: "chopin-bench", version: "0.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: benchTools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) =>
    request.params.name === "noop"
      ? { content: [{ type: "text", text: "ok" }] }
      : callTool(request.params.name, request.params.arguments, { documents, replays, clientName: "bench" }),
  );
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}
const http = createServer((req, res) => {
  handleBench(req, res).catch(() => res.writeHead(500).end());
});
await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
const address = http.address();
const port = typeof address === "object" && address ? address.port : 0;

onTerminate(async () => {
  http.closeAllConnections();
  http.close();
  await product.close();
  documents.close();
  await repo.shutdown();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
announceReady({ benchUrl: `http://127.0.0.1:${port}/mcp`, productUrl: product.url, token, documentId: detail.id });
