/**
 * The localhost MCP endpoint coding agents connect to (Streamable HTTP at MCP_PATH on 127.0.0.1).
 * Stateless with JSON responses: every POST gets a fresh protocol Server and transport that are closed when the
 * response ends, so nothing accumulates per request (SDK 1.32's stateful + JSON mode leaks one stream entry per
 * request; see reference/toolchain.md). GET (standalone SSE stream) is answered 405, which the protocol allows.
 * Every request passes http-guard first: Host, Origin, bearer token, body cap. A request whose params fail the
 * protocol's schema is answered -32602 with a sentence before the SDK's server sees it (request-params.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Database } from "better-sqlite3";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, isInitializeRequest, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { MCP_PATH } from "../util/limits.js";
import type { ToolContext, ToolConversations, ToolDocuments } from "./tools.js";
import { wrapNonObjectArguments } from "./call-arguments.js";
import { authorized, BODY_TOO_LARGE_MESSAGE, BodyTooLarge, hostAllowed, originAllowed, readBody, refuse } from "./http-guard.js";
import { ReplayLog } from "./replay.js";
import { refuseInvalidParams } from "./request-params.js";
import { bodyRefusal, headerRefusal } from "./transport-checks.js";
import { ClientSessions, UNKNOWN_CLIENT } from "./sessions.js";
import { callTool, DOCUMENT_TOOL_DEFINITIONS, DOCUMENT_TOOLS } from "./tools.js";
import { CONVERSATION_TOOL_DEFINITIONS } from "./conversation-tools.js";
import { AGENT_TOOL_DEFINITIONS, type ToolAgents } from "./agent-tools.js";
import { AGENT_CHAT_TOOL_DEFINITIONS, type ToolAgentChats } from "./agent-chat-tools.js";
import { ToolRegistry } from "../util/tool-registry.js";

export const MCP_SERVER_INFO = { name: "chopin", version: "0.1.0" };

export const MCP_INSTRUCTIONS =
  "Chopin holds plan documents written in Markdown. Read a document before changing it and pass its revision to " +
  "update_document; on 'revision-conflict' read again and reapply your edit. Give every create/update a unique " +
  "idempotencyKey and reuse it only to retry the same request. Archived documents are read-only.";

/** JSON-RPC's "Session not found", as the SDK's stateful transport answers an unknown session. */
const SESSION_NOT_FOUND_RPC_CODE = -32001;

export interface McpServerOptions {
  documents: ToolDocuments;
  db: Database;
  /** 0 picks a free port. */
  port: number;
  host?: "127.0.0.1";
  token: string;
  /**
   * The Settings relay address now (null: none); create_document refuses `shared: true` without one. Absent: no relay
   * (the refusing side), for callers that never share.
   */
  relayUrl?: () => string | null;
  /** Each plan's conversation: with it, the conversation tools are listed too. */
  conversations?: ToolConversations;
  /** The agent profiles (issue #27): with them, list_agents is listed too (it refuses while agent chat is off). */
  agents?: ToolAgents;
  /** This person's agent chats (issue #27): with them and the profiles, the chat tools are listed too. */
  agentChats?: ToolAgentChats;
}

export interface RunningMcpServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startMcpServer(options: McpServerOptions): Promise<RunningMcpServer> {
  const host = options.host ?? "127.0.0.1";
  const replays = new ReplayLog(options.db);
  const sessions = new ClientSessions(options.db);
  const relayUrl = options.relayUrl ?? (() => null);
  let port = 0;

  const tools =
    options.conversations || options.agents
      ? new ToolRegistry<ToolContext>([...DOCUMENT_TOOL_DEFINITIONS, ...(options.conversations ? CONVERSATION_TOOL_DEFINITIONS : []), ...(options.agents ? AGENT_TOOL_DEFINITIONS : []), ...(options.agents && options.agentChats ? AGENT_CHAT_TOOL_DEFINITIONS : [])])
      : DOCUMENT_TOOLS;
  const toolList = tools.list().map(({ name, description, inputSchema }) => ({
    name,
    description,
    inputSchema: inputSchema as { type: "object"; [key: string]: unknown },
  }));

  const protocolServer = (clientName: string) => {
    const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} }, instructions: MCP_INSTRUCTIONS });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolList }));
    server.setRequestHandler(CallToolRequestSchema, async (request) =>
      callTool(request.params.name, request.params.arguments, { documents: options.documents, replays, clientName, relayUrl, conversations: options.conversations, agents: options.agents, agentChats: options.agentChats }, tools),
    );
    return server;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "").split("?")[0];
    if (!hostAllowed(req.headers.host, port)) return refuse(res, 403, "forbidden", "Forbidden: unexpected Host header.");
    if (!originAllowed(req.headers.origin)) return refuse(res, 403, "forbidden", "Forbidden: cross-origin requests are refused.");
    if (path !== MCP_PATH) return refuse(res, 404, "not-found", "Not found.");
    if (!authorized(req.headers.authorization, options.token)) {
      return refuse(res, 401, "unauthorized", "Unauthorized: a valid bearer token is required.", {
        "www-authenticate": 'Bearer realm="chopin", error="invalid_token"',
      });
    }
    const sessionId = typeof req.headers["mcp-session-id"] === "string" ? req.headers["mcp-session-id"] : undefined;
    if (req.method === "DELETE") {
      sessions.close(sessionId);
      res.writeHead(200).end();
      return;
    }
    if (req.method !== "POST") return refuse(res, 405, "invalid-input", "Method not allowed.", { allow: "POST, DELETE" });

    let raw: Buffer;
    try {
      // Read (or drained, past the cap) before any answer, so a client is done sending when it comes.
      raw = await readBody(req);
    } catch (error) {
      if (error instanceof BodyTooLarge) return refuse(res, 413, "too-large", BODY_TOO_LARGE_MESSAGE, { connection: "close" });
      throw error;
    }
    const headers = headerRefusal(req.headers.accept, req.headers["content-type"]);
    if (headers) return refuse(res, headers.status, headers.code, headers.message, {}, headers.rpcCode);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      return refuse(res, 400, "invalid-input", "Parse error: the request body is not JSON.", {}, -32700);
    }
    const version = req.headers["mcp-protocol-version"];
    const malformed = bodyRefusal(body, typeof version === "string" ? version : undefined);
    if (malformed) return refuse(res, malformed.status, malformed.code, malformed.message, {}, malformed.rpcCode);

    wrapNonObjectArguments(body);
    // Only an initialize the protocol accepts opens a session: one with bad params is refused (request-params.ts).
    const initialize = (Array.isArray(body) ? body : [body]).find(isInitializeRequest);
    let clientName: string;
    if (initialize) {
      const opened = sessions.open(initialize.params.clientInfo.name);
      clientName = sessions.nameOf(opened) ?? UNKNOWN_CLIENT;
      res.setHeader("mcp-session-id", opened);
    } else {
      const known = sessions.nameOf(sessionId);
      // The protocol's answer to a session the server does not know: 404, and the client initializes again.
      if (known === null) {
        return refuse(res, 404, "not-found", "Session not found: Chopin does not know this mcp-session-id (it was closed or forgotten); send initialize again.", {}, SESSION_NOT_FOUND_RPC_CODE);
      }
      clientName = known;
    }

    const server = protocolServer(clientName);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    refuseInvalidParams(transport);
    await transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch(() => refuse(res, 500, "internal", "Internal error."));
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;

  return {
    url: `http://${host}:${port}${MCP_PATH}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
