/**
 * The MCP server on this installation's stable port (main/store/stable-port.ts): agents are set up once with a fixed
 * address (Claude Code and Codex store the URL), so the port must not wander between launches.
 */
import type { Database } from "better-sqlite3";
import { listenOnStablePort, type StablePortStart } from "../store/stable-port.js";
import { startMcpServer, type McpServerOptions, type RunningMcpServer } from "./server.js";

export type StablePortServer = StablePortStart<RunningMcpServer>;

export function startMcpOnStablePort(options: Omit<McpServerOptions, "port">, requested: number, db: Database): Promise<StablePortServer> {
  return listenOnStablePort(db, "mcp", requested, (port) => startMcpServer({ ...options, port }));
}
