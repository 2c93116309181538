/**
 * A coding agent on one desktop writes over MCP; a teammate on another desktop sees it like any other edit. The agent
 * uses the MCP SDK's own client with the config the app published in <data-dir>/mcp-config.json.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { editor, editorText, openApp, openDocument, typeAtEnd } from "./support/app-page.js";
import { startCore, stopAll, tempDir, type CoreReady, type Started } from "./support/processes.js";
import { addRelayUser, startRelayProcess } from "./support/relay.js";
import { freePort } from "./support/tcp-proxy.js";

test.describe.configure({ mode: "serial" });

let coreA: Started<CoreReady>;
let pageB: Page;
let agent: Client;

async function call<T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; value: T }> {
  const result = (await agent.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text: string }> };
  return { isError: !!result.isError, value: JSON.parse(result.content[0].text) as T };
}

test.beforeAll(async ({ browser }) => {
  const relayDir = tempDir("mcp-relay");
  const port = await freePort();
  const [tokenA, tokenB] = [await addRelayUser(relayDir, "alice"), await addRelayUser(relayDir, "bob")];
  await startRelayProcess(relayDir, port);
  const relayUrl = `ws://127.0.0.1:${port}`;
  const [a, b] = await Promise.all([
    startCore(tempDir("mcp-core-a"), ["--relay", relayUrl, "--relay-token", tokenA]),
    startCore(tempDir("mcp-core-b"), ["--relay", relayUrl, "--relay-token", tokenB]),
  ]);
  coreA = a;
  pageB = await openApp(browser, b.ready.url);

  const config = JSON.parse(readFileSync(join(coreA.ready.dataDir, "mcp-config.json"), "utf8"));
  const server = config.mcpServers.chopin;
  agent = new Client({ name: "e2e-agent", version: "1.0.0" });
  await agent.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }));
});

test.afterAll(async () => {
  await agent?.close();
  await stopAll();
});

test("a document created over MCP reaches a teammate with its provenance", async () => {
  const created = await call<{ document: { id: string } }>("create_document", {
    idempotencyKey: "e2e-create-1",
    title: "Agent plan",
    markdown: "# From the agent\n\nFirst step.",
    baseBranch: "main",
    baseCommit: "0123456789abcdef0123456789abcdef01234567",
    brief: { goal: "Ship the sync", constraints: ["offline first"], settledDecisions: [], openQuestions: [], repositoryFindings: [] },
  });
  expect(created.isError).toBe(false);
  await openDocument(pageB, "Agent plan");
  await expect(editor(pageB)).toContainText("From the agent");

  const read = await call<{ provenance: { clientName: string; baseBranch: string }; brief: { goal: string }; shared: boolean }>("read_document", { id: created.value.document.id });
  expect(read.value.provenance).toMatchObject({ clientName: "e2e-agent", baseBranch: "main" });
  expect(read.value.brief.goal).toBe("Ship the sync");
  expect(read.value.shared).toBe(true);
});

test("an MCP update merges with a teammate's typing, and a stale revision is refused", async () => {
  const list = await call<{ documents: Array<{ id: string; title: string }> }>("list_documents", {});
  const id = list.value.documents.find((d) => d.title === "Agent plan")!.id;
  const before = await call<{ revision: string; markdown: string }>("read_document", { id });

  await typeAtEnd(pageB, " Bob adds a note.");
  await expect
    .poll(async () => (await call<{ markdown: string }>("read_document", { id })).value.markdown, { timeout: 30_000 })
    .toContain("Bob adds a note.");

  const stale = await call<{ error: { code: string; details: { revision: string } } }>("update_document", {
    id,
    revision: before.value.revision,
    markdown: before.value.markdown + "\n\nSecond step.",
    idempotencyKey: "e2e-update-stale",
  });
  expect(stale.isError).toBe(true);
  expect(stale.value.error.code).toBe("revision-conflict");

  const current = await call<{ revision: string; markdown: string }>("read_document", { id });
  const updated = await call("update_document", {
    id,
    revision: current.value.revision,
    markdown: current.value.markdown + "\n\nSecond step.",
    idempotencyKey: "e2e-update-1",
  });
  expect(updated.isError).toBe(false);
  await expect.poll(() => editorText(pageB), { timeout: 30_000 }).toContain("Second step.");
  expect(await editorText(pageB)).toContain("Bob adds a note.");
});
