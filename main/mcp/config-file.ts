/**
 * `<dataDir>/mcp-config.json`: the file Copilot CLI and Claude Code can read to reach this app. It holds the bearer
 * token, so it is written owner-only (0600) via a temp file and rename: a reader never sees a half-written file
 * and the token is never world-readable, even for an instant. The temp file is always a new one (O_EXCL): a file or
 * symlink left at its name would otherwise be written through, keeping its own mode or pointing the token elsewhere.
 */
import { chmodSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const MCP_CONFIG_FILE = "mcp-config.json";
export const MCP_SERVER_NAME = "chopin";

export function mcpConfigOf(url: string, token: string) {
  return {
    mcpServers: {
      [MCP_SERVER_NAME]: { type: "http", url, headers: { Authorization: `Bearer ${token}` } },
    },
  };
}

/** Writes the config file (mode 0600) and returns its path. */
export function writeMcpConfig(dataDir: string, url: string, token: string): string {
  const path = join(dataDir, MCP_CONFIG_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  try {
    rmSync(temp, { force: true });
    writeFileSync(temp, `${JSON.stringify(mcpConfigOf(url, token), null, 2)}\n`, { mode: 0o600, flag: "wx" });
    chmodSync(temp, 0o600);
    renameSync(temp, path);
  } catch (error) {
    // The temporary file holds the token: it must not stay behind when the rename fails (e.g. a folder in the way).
    rmSync(temp, { force: true });
    throw error;
  }
  return path;
}
