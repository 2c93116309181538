/**
 * An agent that stays connected while the app restarts keeps writing under its own name (sessions are stored), and
 * a session id the server does not know is answered as the protocol asks (404, -32001), so the client initializes
 * again instead of writing as "unknown".
 */
import { afterEach, describe, expect, it } from "vitest";
import { makeFixture, type Fixture } from "../documents/test-fixture.js";
import { postMcp, startMcpFixture, type McpFixture } from "./mcp-test-support.js";

let mf: McpFixture | undefined;
let fx: Fixture | undefined;
afterEach(async () => {
  await mf?.close();
  await fx?.close();
  mf = fx = undefined;
});

const post = (mf: McpFixture, body: unknown, sessionId?: string) => postMcp(mf, body, sessionId ? { "mcp-session-id": sessionId } : {});

const initialize = (name: string) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name, version: "1" } },
});
const create = (key: string) => ({
  jsonrpc: "2.0",
  id: 2,
  method: "tools/call",
  params: { name: "create_document", arguments: { idempotencyKey: key, markdown: "# Plan\n" } },
});

describe("MCP sessions across restarts", () => {
  it("a session opened before a restart still names its client after it", async () => {
    fx = await makeFixture();
    mf = await startMcpFixture(fx);
    const opened = await post(mf, initialize("claude-code"));
    expect(opened.status).toBe(200);
    expect(opened.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await mf.close();
    mf = await startMcpFixture(fx);
    const created = await post(mf, create("after-restart"), opened.sessionId!);
    expect(created.status).toBe(200);
    const result = JSON.parse(created.json.result.content[0].text);
    expect(result.document.provenance).toEqual({ clientName: "claude-code" });
  });

  it("answers a session id it does not know with 404 and -32001, and writes nothing", async () => {
    mf = await startMcpFixture();
    const refused = await post(mf, create("unknown-session"), "5b1c2f43-0000-4000-8000-000000000000");
    expect(refused.status).toBe(404);
    expect(refused.json.error.code).toBe(-32001);
    expect(refused.json.error.message).toMatch(/initialize again/);
    // The client initializes again, as the protocol says, and goes on.
    const opened = await post(mf, initialize("codex"));
    const created = await post(mf, create("unknown-session"), opened.sessionId!);
    const result = JSON.parse(created.json.result.content[0].text);
    expect(result.status).toBe("created");
    expect(result.document.provenance).toEqual({ clientName: "codex" });
  });

  it("a request with no session id at all still works, as a client that never initialized", async () => {
    mf = await startMcpFixture();
    const created = await post(mf, create("no-session"));
    expect(created.status).toBe(200);
    expect(JSON.parse(created.json.result.content[0].text).document.provenance).toEqual({ clientName: "unknown" });
  });
});
