/** Test support for the MCP server (imported only by *.test.ts): a running server over a real service, and clients. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { makeFixture, type Fixture } from "../documents/test-fixture.js";
import { startMcpServer, type RunningMcpServer } from "./server.js";
import { loadOrCreateMcpToken } from "./token.js";

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
  const relayUrl = options.relayUrl ?? (() => null);
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
