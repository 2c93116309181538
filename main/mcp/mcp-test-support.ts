/** Test support for the MCP server (imported only by *.test.ts): a running server over a real service, and clients. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { makeFixture, type Fixture } from "../documents/test-fixture.js";
import { startMcpServer, type RunningMcpServer } from "./server.js";
import { loadOrCreateMcpToken } from "./token.js";
import { openLocalDb } from "../store/local-db.js";

export interface McpFixture {
  fx: Fixture;
  server: RunningMcpServer;
  token: string;
  connect(name?: string, token?: string): Promise<Client>;
  call(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: any }>;
  close(): Promise<void>;
}

/** `relayUrl`: the Settings relay address the server sees (default none, as the fixture's service shares nothing). */
export async function startMcpFixture(fx?: Fixture, options: { relayUrl?: () => string | null } = {}): Promise<McpFixture> {
  const fixture = fx ?? (await makeFixture());
  const token = loadOrCreateMcpToken(fixture.db);
  // As in the core, where the relay link tells the document service the address shares belong to.
  const relayUrl = () => {
    const url = (options.relayUrl ?? (() => null))();
    fixture.service.setRelay(url);
    return url;
  };
  const server = await startMcpServer({ documents: fixture.service, db: fixture.db, port: 0, token, relayUrl });
  const clients: Client[] = [];
  return {
    fx: fixture,
    server,
    token,
    async connect(name = "test-agent", useToken = token) {
      const client = new Client({ name, version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { Authorization: `Bearer ${useToken}` } },
      });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    async call(client, name, args) {
      const result = (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        content: { type: string; text: string }[];
      };
      return { isError: result.isError === true, body: JSON.parse(result.content[0].text) };
    },
    async close() {
      for (const client of clients) await client.close().catch(() => undefined);
      await server.close();
      if (!fx) await fixture.close();
    },
  };
}

/**
 * A raw POST to the fixture's /mcp: the bearer token and the transport's headers, which `headers` override. A string
 * body is sent as it is (bad JSON included); anything else as JSON. `json` is null for an empty answer.
 */
export async function postMcp(
  mf: McpFixture,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; sessionId: string | null; json: any }> {
  const response = await fetch(mf.server.url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${mf.token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, sessionId: response.headers.get("mcp-session-id"), json: text ? JSON.parse(text) : null };
}

/** An agent connected over MCP to a real app core's port, as Claude Code would be, with the core's own token. */
export interface CoreAgent {
  call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: any }>;
  tools(): Promise<string[]>;
  close(): Promise<void>;
}

/** Connects to `core`, whose data folder is `dataDir` (the token is read from its database, as the config file has it). */
export async function connectCoreAgent(core: { mcp: { url: string } }, dataDir: string): Promise<CoreAgent> {
  const db = openLocalDb(dataDir);
  const token = loadOrCreateMcpToken(db);
  db.close();
  const client = new Client({ name: "claude-code", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(core.mcp.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return {
    async call(name, args) {
      const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
      return { isError: result.isError === true, body: JSON.parse(result.content[0]!.text) };
    },
    async tools() {
      return (await client.listTools()).tools.map((t) => t.name);
    },
    close: () => client.close(),
  };
}
