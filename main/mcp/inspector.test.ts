/**
 * An independent client: the MCP Inspector's CLI (a different codebase from the SDK client our other tests use)
 * must list our tools with the token, and fail (non-zero exit) with a wrong one; and a document it creates with
 * tools/call (arguments as --tool-arg key=value pairs) must read back through it, and be in the service.
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

/** The tool's answer from `--format json` output: the result's structuredContent, which mirrors the text block. */
function toolResult(stdout: string): { isError?: boolean; body: any } {
  const { result } = JSON.parse(stdout) as { result: { isError?: boolean; structuredContent?: unknown; content: { type: string; text: string }[] } };
  const body = JSON.parse(result.content[0].text);
  // Two encodings of one answer must agree, or a client reading either would see a different result.
  if (result.structuredContent !== undefined) expect(result.structuredContent).toEqual(body);
  return { isError: result.isError, body };
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

  it("creates a document with tools/call create_document and reads it back with read_document", async () => {
    mf = await startMcpFixture();
    const connection = [mf.server.url, "--transport", "http", "--header", `Authorization: Bearer ${mf.token}`, "--format", "json"];
    const markdown = "# From the Inspector\n\n- a step with spaces, = signs and \"quotes\"\n";
    const created = await runInspector([
      ...connection,
      "--method",
      "tools/call",
      "--tool-name",
      "create_document",
      "--tool-arg",
      "idempotencyKey=inspector-create-1",
      "title=Inspector plan",
      `markdown=${markdown}`,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const made = toolResult(created.stdout);
    expect(made.isError ?? false).toBe(false);
    expect(made.body).toMatchObject({ status: "created", document: { title: "Inspector plan", createdVia: "mcp" } });
    const id: string = made.body.document.id;
    expect(id).toMatch(/^[1-9A-HJ-NP-Za-km-z]+$/);

    const read = await runInspector([...connection, "--method", "tools/call", "--tool-name", "read_document", "--tool-arg", `id=${id}`]);
    expect(read.code, read.stderr).toBe(0);
    const got = toolResult(read.stdout);
    expect(got.isError ?? false).toBe(false);
    expect(got.body).toMatchObject({ id, title: "Inspector plan", revision: made.body.document.revision, archivedAt: null, markdown });
    // Not only an answer: the service holds the document the Inspector wrote.
    const stored = await mf.fx.service.getContent(id);
    expect([stored.detail.title, stored.markdown]).toEqual(["Inspector plan", markdown]);
  }, 120_000);
});
