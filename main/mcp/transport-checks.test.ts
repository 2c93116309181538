/**
 * Requests the SDK's transport would refuse with a bare error are refused first in our shape: their HTTP status, a
 * JSON-RPC error with a sentence, and data.code, like every other refusal of the port.
 */
import { afterEach, describe, expect, it } from "vitest";
import { postMcp, startMcpFixture, type McpFixture } from "./mcp-test-support.js";

let mf: McpFixture;
afterEach(async () => {
  await mf?.close();
});

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const LIST = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };

const post = (body: string, headers: Record<string, string> = {}) => postMcp(mf, body, headers);

describe("transport refusals in our shape", () => {
  it.each([
    ["Accept without text/event-stream", JSON.stringify(LIST), { accept: "application/json" }, 406, -32000, /Accept: application\/json, text\/event-stream/],
    ["a text/plain body", JSON.stringify(LIST), { "content-type": "text/plain" }, 415, -32000, /Content-Type: application\/json/],
    ["a body that is not JSON", '{"jsonrpc":', {}, 400, -32700, /not JSON/],
    ["an empty batch", "[]", {}, 400, -32600, /empty batch/],
    ["JSON that is no JSON-RPC message", '{"hello":1}', {}, 400, -32700, /not a JSON-RPC 2\.0 message/],
    ["initialize inside a batch", JSON.stringify([INIT, LIST]), {}, 400, -32600, /initialize must be sent alone/],
    ["an unknown protocol version", JSON.stringify(LIST), { "mcp-protocol-version": "1999-01-01" }, 400, -32000, /Unsupported MCP protocol version "1999-01-01"/],
  ])("%s", async (_what, body, headers, status, rpcCode, words) => {
    mf = await startMcpFixture();
    const answer = await post(body, headers);
    expect(answer.status).toBe(status);
    expect(answer.json.error.code).toBe(rpcCode);
    expect(answer.json.error.message).toMatch(words);
    expect(answer.json.error.data.code).toBe("invalid-input");
  });

  it("lets through what the transport accepts: a supported version, and a batch of requests", async () => {
    mf = await startMcpFixture();
    const res = await postMcp(mf, [LIST, { ...LIST, id: 3 }], { "content-type": "application/json; charset=utf-8", "mcp-protocol-version": "2025-03-26" });
    expect(res.status).toBe(200);
    const answers = res.json as { id: number; result: { tools: unknown[] } }[];
    expect(answers.map((a) => a.id).sort()).toEqual([2, 3]);
    expect(answers[0].result.tools.length).toBeGreaterThan(0);
  });
});
