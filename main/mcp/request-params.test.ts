import { afterEach, describe, expect, it } from "vitest";
import { MAX_MCP_PARAMS_ISSUES_LISTED, MAX_MCP_PARAMS_PATH_CHARS } from "../util/limits.js";
import { postMcp, startMcpFixture, type McpFixture } from "./mcp-test-support.js";

let mf: McpFixture;
afterEach(async () => {
  await mf?.close();
});

/** One raw POST to /mcp, as an agent with a broken MCP library would send it; answers the parsed JSON body. */
const post = (body: unknown) => postMcp(mf, body);

const INIT_PARAMS = { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "raw", version: "1" } };

/** What every refusal of bad params must look like: invalid params, one plain sentence, our error code in data. */
function expectInvalidParams(error: any, method: string) {
  expect(error.code).toBe(-32602);
  expect(error.message).toMatch(new RegExp(`^The params of this ${method} request are not valid: .+\\.$`));
  // One sentence, not a schema dump.
  expect(error.message).not.toMatch(/[\n{[]/);
  expect(error.message.length).toBeLessThan(300);
  expect(error.data).toMatchObject({ code: "invalid-input", message: error.message });
  expect(error.data.details.issues.length).toBeGreaterThan(0);
}

describe("requests whose params fail the protocol's schema", () => {
  it("tools/call with a name that is not text, or with no params at all, is refused as invalid params", async () => {
    mf = await startMcpFixture();
    const badName = await post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 5, arguments: {} } });
    expect(badName.status).toBe(200);
    expect(badName.json.id).toBe(1);
    expectInvalidParams(badName.json.error, "tools/call");
    expect(badName.json.error.message).toContain("params.name");
    expect(badName.json.error.data.details.issues[0]).toMatchObject({ path: "params.name" });

    const noParams = await post({ jsonrpc: "2.0", id: 2, method: "tools/call" });
    expect(noParams.json.id).toBe(2);
    expectInvalidParams(noParams.json.error, "tools/call");
    expect(noParams.json.error.message).toContain("params is missing");
  });

  it(`names a bad value by its path, shown to MAX_MCP_PARAMS_PATH_CHARS (${MAX_MCP_PARAMS_PATH_CHARS}) characters: keys are the agent's text`, async () => {
    mf = await startMcpFixture();
    const key = "k".repeat(MAX_MCP_PARAMS_PATH_CHARS * 10);
    const params = { ...INIT_PARAMS, capabilities: { experimental: { [key]: 5 } } };
    const { json } = await post({ jsonrpc: "2.0", id: 3, method: "initialize", params });
    expectInvalidParams(json.error, "initialize");
    expect(json.error.message).toContain(`params.capabilities.experimental.${"k".repeat(40)}`);
    expect(json.error.message).not.toContain(key);
    expect(json.error.data.details.issues[0].path).toHaveLength(MAX_MCP_PARAMS_PATH_CHARS + 1);
  });

  it(`lists MAX_MCP_PARAMS_ISSUES_LISTED (${MAX_MCP_PARAMS_ISSUES_LISTED}) problems at most, and says how many more there were`, async () => {
    mf = await startMcpFixture();
    const withBadKeys = (n: number) => ({
      ...INIT_PARAMS,
      capabilities: { experimental: Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])) },
    });
    const atLimit = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: withBadKeys(MAX_MCP_PARAMS_ISSUES_LISTED) });
    expect(atLimit.json.error.data.details.issues).toHaveLength(MAX_MCP_PARAMS_ISSUES_LISTED);
    expect(atLimit.json.error.message).toContain(`(and ${MAX_MCP_PARAMS_ISSUES_LISTED - 1} more problems)`);
    const over = await post({ jsonrpc: "2.0", id: 2, method: "initialize", params: withBadKeys(MAX_MCP_PARAMS_ISSUES_LISTED + 1) });
    expect(over.json.error.data.details.issues).toHaveLength(MAX_MCP_PARAMS_ISSUES_LISTED);
    expect(over.json.error.message).toContain(`(and ${MAX_MCP_PARAMS_ISSUES_LISTED} more problems)`);
  });

  it("initialize with a protocolVersion that is not text is refused as invalid params and opens no session", async () => {
    mf = await startMcpFixture();
    const res = await fetch(mf.server.url, {
      method: "POST",
      headers: { authorization: `Bearer ${mf.token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "initialize", params: { ...INIT_PARAMS, protocolVersion: 5 } }),
    });
    const json = await res.json();
    expect(json.id).toBe(7);
    expectInvalidParams(json.error, "initialize");
    expect(json.error.message).toContain("params.protocolVersion");
    expect(res.headers.get("mcp-session-id")).toBeNull();
  });

  it("in a batch, only the bad request is refused; the others are answered as usual", async () => {
    mf = await startMcpFixture();
    const answer = await post([
      { jsonrpc: "2.0", id: "ok", method: "tools/list", params: {} },
      { jsonrpc: "2.0", id: "bad", method: "tools/list", params: { cursor: 5 } },
      { jsonrpc: "2.0", id: "ping", method: "ping" },
    ]);
    expect(answer.status).toBe(200);
    const byId = Object.fromEntries((answer.json as any[]).map((m) => [m.id, m]));
    expect(byId.ok.result.tools.length).toBeGreaterThan(0);
    expectInvalidParams(byId.bad.error, "tools/list");
    expect(byId.ping.result).toEqual({});
  });

  it("good requests, unknown methods and non-object tool arguments are answered as before", async () => {
    mf = await startMcpFixture();
    const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: INIT_PARAMS });
    expect(init.json.result.serverInfo.name).toBe("chopin");
    const unknown = await post({ jsonrpc: "2.0", id: 2, method: "chopin/nothing", params: { x: 1 } });
    expect(unknown.json.error.code).toBe(-32601);
    const notObject = await post({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "list_documents", arguments: "text" } });
    expect(notObject.json.result.isError).toBe(true);
    expect(JSON.parse(notObject.json.result.content[0].text).error.code).toBe("invalid-input");
  });
});
