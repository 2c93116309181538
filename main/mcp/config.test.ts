import { afterEach, describe, expect, it } from "vitest";
import { lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MCP_TOKEN_BYTES } from "../util/limits.js";
import { openLocalDb } from "../store/local-db.js";
import { writeMcpConfig } from "./config-file.js";
import { mcpConnectCommands } from "./connect-commands.js";
import { loadOrCreateMcpToken } from "./token.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), "chopin-mcp-"));
  dirs.push(dir);
  return dir;
}

describe("MCP token", () => {
  it("is MCP_TOKEN_BYTES random bytes, created once and kept across reopen", () => {
    const dir = tempDir();
    const db = openLocalDb(dir);
    const token = loadOrCreateMcpToken(db);
    expect(Buffer.from(token, "base64url")).toHaveLength(MCP_TOKEN_BYTES);
    expect(loadOrCreateMcpToken(db)).toBe(token);
    db.close();
    const again = openLocalDb(dir);
    expect(loadOrCreateMcpToken(again)).toBe(token);
    again.close();
    const other = openLocalDb(tempDir());
    expect(loadOrCreateMcpToken(other)).not.toBe(token);
    other.close();
  });
});

describe("mcp-config.json", () => {
  it("has exactly the documented shape and mode 0600, also when rewritten", () => {
    const dir = tempDir();
    const path = writeMcpConfig(dir, "http://127.0.0.1:4321/mcp", "TOKEN");
    expect(path).toBe(join(dir, "mcp-config.json"));
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({
      mcpServers: {
        chopin: { type: "http", url: "http://127.0.0.1:4321/mcp", headers: { Authorization: "Bearer TOKEN" } },
      },
    });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    writeMcpConfig(dir, "http://127.0.0.1:5555/mcp", "T2");
    expect(JSON.parse(readFileSync(path, "utf8")).mcpServers.chopin.url).toBe("http://127.0.0.1:5555/mcp");
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("writes the token into a new temp file, never through a file or symlink already at the temp name", () => {
    const dir = tempDir();
    const elsewhere = join(tempDir(), "elsewhere.txt");
    writeFileSync(elsewhere, "untouched");
    symlinkSync(elsewhere, join(dir, `mcp-config.json.${process.pid}.tmp`));
    const path = writeMcpConfig(dir, "http://127.0.0.1:4321/mcp", "SECRET-TOKEN");
    expect(readFileSync(elsewhere, "utf8")).toBe("untouched");
    expect(lstatSync(path).isFile()).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, "utf8")).toContain("Bearer SECRET-TOKEN");
  });

  it("gives copy-paste commands for each agent", () => {
    const c = mcpConnectCommands("http://127.0.0.1:1/mcp", "T");
    expect(c.copilotCli).toBe('copilot mcp add --transport http --header "Authorization: Bearer T" chopin http://127.0.0.1:1/mcp');
    expect(c.claudeCode).toBe('claude mcp add --transport http chopin http://127.0.0.1:1/mcp --header "Authorization: Bearer T"');
    expect(c.codex).toBe(
      "export CHOPIN_MCP_TOKEN=T && codex mcp add chopin --url http://127.0.0.1:1/mcp --bearer-token-env-var CHOPIN_MCP_TOKEN",
    );
  });
});
