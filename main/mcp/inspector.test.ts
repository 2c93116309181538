/**
 * An independent client: the MCP Inspector's CLI (a different codebase from the SDK client our other tests use)
 * must list our tools with the token, and fail (non-zero exit) with a wrong one.
 */
import { afterEach, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { startMcpFixture, type McpFixture } from "./mcp-test-support.js";

const require = createRequire(import.meta.url);
const inspectorDir = dirname(require.resolve("@modelcontextprotocol/inspector/package.json"));
const inspectorPkg = JSON.parse(readFileSync(join(inspectorDir, "package.json"), "utf8")) as { bin: Record<string, string> };
const launcher = join(inspectorDir, inspectorPkg.bin["mcp-inspector"]);

function runInspector(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [launcher, "--cli", ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

let mf: McpFixture;
afterEach(async () => {
  await mf?.close();
});

describe("MCP Inspector CLI", () => {
  it("lists the tools with the token; exits non-zero with a wrong token", async () => {
    mf = await startMcpFixture();
    const ok = await runInspector([
      mf.server.url,
      "--transport",
      "http",
      "--header",
      `Authorization: Bearer ${mf.token}`,
      "--method",
      "tools/list",
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    for (const name of ["list_documents", "read_document", "create_document", "update_document", "rename_document", "archive_document", "restore_document"]) {
      expect(ok.stdout).toContain(`"${name}"`);
    }
    const bad = await runInspector([
      mf.server.url,
      "--transport",
      "http",
      "--header",
      "Authorization: Bearer wrong",
      "--method",
      "tools/list",
    ]);
    expect(bad.code).not.toBe(0);
  }, 120_000);
});
