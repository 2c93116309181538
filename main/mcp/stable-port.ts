/**
 * Which port the MCP server listens on, launch after launch. Agents are set up once with a fixed address (Claude
 * Code and Codex store the URL), so the port must not wander: the requested port first (the default, or --mcp-port);
 * when it is taken, the port this installation fell back to last time; only then any free port, remembered as the
 * new fallback. When the port differs from the one the previous launch published, the app says so (changedFrom), so
 * a person knows why an agent set up earlier cannot connect.
 * What must stay true: a taken port never keeps the app from starting; an explicit port 0 ("any") is never
 * remembered or reported as a change (tests and scripts ask for it on purpose).
 */
import type { Database } from "better-sqlite3";
import { getSetting, setSetting } from "../store/settings.js";
import { startMcpServer, type McpServerOptions, type RunningMcpServer } from "./server.js";

const FALLBACK_PORT_KEY = "mcp.fallbackPort";
const PUBLISHED_PORT_KEY = "mcp.publishedPort";

export interface StablePortServer {
  server: RunningMcpServer;
  /** The port the previous launch published, when this launch could not use it; null otherwise. */
  changedFrom: number | null;
}

export async function startMcpOnStablePort(
  options: Omit<McpServerOptions, "port">,
  requested: number,
  db: Database,
): Promise<StablePortServer> {
  const fallback = Number(getSetting(db, FALLBACK_PORT_KEY)) || 0;
  const candidates = requested === 0 ? [0] : [...new Set([requested, fallback].filter((p) => p > 0)), 0];
  let server: RunningMcpServer | null = null;
  for (const port of candidates) {
    server = await startMcpServer({ ...options, port }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE" && port !== 0) return null;
      throw error;
    });
    if (server) break;
  }
  if (!server) throw new Error("unreachable: port 0 always binds or throws");
  if (requested === 0) return { server, changedFrom: null };
  if (server.port !== requested) setSetting(db, FALLBACK_PORT_KEY, String(server.port));
  const published = Number(getSetting(db, PUBLISHED_PORT_KEY)) || null;
  setSetting(db, PUBLISHED_PORT_KEY, String(server.port));
  return { server, changedFrom: published !== null && published !== server.port ? published : null };
}
