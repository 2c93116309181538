import { afterEach, describe, expect, it } from "vitest";
import { request } from "node:http";
import { MAX_MCP_DRAINED_BYTES, MAX_MCP_REQUEST_BYTES, MCP_PATH } from "../util/limits.js";
import { authorized, hostAllowed, originAllowed } from "./http-guard.js";
import { startMcpFixture, type McpFixture } from "./mcp-test-support.js";
import { bearerTokenOf, tokensEqual } from "./token.js";

let mf: McpFixture;
afterEach(async () => {
  await mf?.close();
});

/** A raw HTTP request so every header (Host included) is exactly what a hostile client would send. */
function send(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, method: options.method ?? "POST", path: options.path ?? "/mcp", headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on("error", reject);
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

function headers(mf: McpFixture, extra: Record<string, string> = {}) {
  return {
    host: `127.0.0.1:${mf.server.port}`,
    authorization: `Bearer ${mf.token}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...extra,
  };
}

describe("guard functions", () => {
  it("Host must name this loopback port", () => {
    expect(hostAllowed("127.0.0.1:4000", 4000)).toBe(true);
    expect(hostAllowed("localhost:4000", 4000)).toBe(true);
    expect(hostAllowed("LOCALHOST:4000", 4000)).toBe(true);
    expect(hostAllowed("127.0.0.1:4001", 4000)).toBe(false);
    expect(hostAllowed("localhost.evil.example:4000", 4000)).toBe(false);
    expect(hostAllowed("evil.example:4000", 4000)).toBe(false);
    expect(hostAllowed(undefined, 4000)).toBe(false);
  });
  it("Origin is optional but must be loopback when present", () => {
    expect(originAllowed(undefined)).toBe(true);
    expect(originAllowed("http://localhost:5173")).toBe(true);
    expect(originAllowed("http://127.0.0.1")).toBe(true);
    expect(originAllowed("http://[::1]:3000")).toBe(true);
    expect(originAllowed("https://evil.example")).toBe(false);
    expect(originAllowed("http://127.0.0.1.evil.example")).toBe(false);
    expect(originAllowed("null")).toBe(false);
  });
  it("bearer tokens compare exactly", () => {
    expect(bearerTokenOf("Bearer abc")).toBe("abc");
    expect(bearerTokenOf("bearer abc")).toBe("abc");
    expect(bearerTokenOf("Basic abc")).toBeNull();
    expect(tokensEqual("abc", "abc")).toBe(true);
    expect(tokensEqual("abc", "abd")).toBe(false);
    expect(tokensEqual("abc", "abcd")).toBe(false);
    expect(authorized(undefined, "abc")).toBe(false);
    expect(authorized("Bearer abc", "abc")).toBe(true);
  });
});

describe("HTTP refusals on a live server", () => {
  it("401 with WWW-Authenticate without a token or with a wrong one", async () => {
    mf = await startMcpFixture();
    const none = await send(mf.server.port, { headers: headers(mf, { authorization: "" }), body: INIT });
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toMatch(/^Bearer /);
    const wrong = await send(mf.server.port, { headers: headers(mf, { authorization: "Bearer nope" }), body: INIT });
    expect(wrong.status).toBe(401);
    await expect(mf.connect("x", "wrong-token")).rejects.toThrow();
  });

  it("403 for a foreign Origin; loopback Origin accepted", async () => {
    mf = await startMcpFixture();
    const bad = await send(mf.server.port, { headers: headers(mf, { origin: "https://evil.example" }), body: INIT });
    expect(bad.status).toBe(403);
    const good = await send(mf.server.port, { headers: headers(mf, { origin: "http://localhost:5173" }), body: INIT });
    expect(good.status).toBe(200);
    expect(good.headers["mcp-session-id"]).toBeTruthy();
  });

  it("refuses a rebinding Host even with the right token", async () => {
    mf = await startMcpFixture();
    const bad = await send(mf.server.port, { headers: headers(mf, { host: `evil.example:${mf.server.port}` }), body: INIT });
    expect(bad.status).toBe(403);
    const otherPort = await send(mf.server.port, { headers: headers(mf, { host: `127.0.0.1:${mf.server.port + 1}` }), body: INIT });
    expect(otherPort.status).toBe(403);
    const localhost = await send(mf.server.port, { headers: headers(mf, { host: `localhost:${mf.server.port}` }), body: INIT });
    expect(localhost.status).toBe(200);
  });

  it("body cap: MAX_MCP_REQUEST_BYTES is accepted (reaches JSON parsing), one more byte is 413", async () => {
    mf = await startMcpFixture();
    // A JSON-RPC request padded with whitespace to exactly the cap: valid JSON, processed normally.
    const padded = (size: number) => {
      const base = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list", params: {} });
      return base + " ".repeat(size - Buffer.byteLength(base));
    };
    const init = await send(mf.server.port, { headers: headers(mf), body: INIT });
    const session = { "mcp-session-id": String(init.headers["mcp-session-id"]), "mcp-protocol-version": "2025-03-26" };
    const atCap = await send(mf.server.port, { headers: headers(mf, session), body: padded(MAX_MCP_REQUEST_BYTES) });
    expect(atCap.status).toBe(200);
    expect(JSON.parse(atCap.body).result.tools.length).toBe(7);
    const over = await send(mf.server.port, { headers: headers(mf, session), body: padded(MAX_MCP_REQUEST_BYTES + 1) });
    expect(over.status).toBe(413);
  });

  it("413 carries a JSON-RPC error naming the limit and our code, whether the length is declared or streamed", async () => {
    mf = await startMcpFixture();
    const expected = {
      jsonrpc: "2.0",
      error: { code: -32000, message: expect.stringContaining(`${MAX_MCP_REQUEST_BYTES} bytes (768 KiB)`), data: { code: "too-large" } },
      id: null,
    };
    const body = Buffer.alloc(MAX_MCP_REQUEST_BYTES + 1, 0x20);
    const declared = await send(mf.server.port, { headers: headers(mf), body });
    expect(declared.status).toBe(413);
    expect(declared.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(declared.body)).toEqual(expected);
    // No Content-Length: the cap is found while reading (chunked transfer encoding).
    const streamed = await send(mf.server.port, { headers: headers(mf, { "transfer-encoding": "chunked" }), body });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body)).toEqual(expected);
  });

  it("a fetch client sending many megabytes over the cap reads the 413 answer (the connection is not cut under it)", async () => {
    mf = await startMcpFixture();
    const url = `http://127.0.0.1:${mf.server.port}${MCP_PATH}`;
    const { host: _host, ...fetchHeaders } = headers(mf);
    for (const size of [5 * 1024 * 1024, 20 * 1024 * 1024]) {
      const res = await fetch(url, { method: "POST", headers: fetchHeaders, body: Buffer.alloc(size, 0x20) });
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ error: { data: { code: "too-large" } } });
      // Streamed (no declared length): the cap is found while reading, mid-upload.
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= size) return controller.close();
          sent += chunk.length;
          controller.enqueue(chunk);
        },
      });
      const streamed = await fetch(url, { method: "POST", headers: fetchHeaders, body: stream, duplex: "half" } as RequestInit);
      expect(streamed.status).toBe(413);
      expect(await streamed.json()).toMatchObject({ error: { data: { code: "too-large" } } });
    }
    // The server stays up and answers the next request.
    const after = await send(mf.server.port, { headers: headers(mf), body: INIT });
    expect(after.status).toBe(200);
  });

  it("drains an over-cap body of MAX_MCP_DRAINED_BYTES before answering; one declared a byte longer is refused at once", async () => {
    mf = await startMcpFixture();
    const url = `http://127.0.0.1:${mf.server.port}${MCP_PATH}`;
    const { host: _host, ...fetchHeaders } = headers(mf);
    const drained = await fetch(url, { method: "POST", headers: fetchHeaders, body: Buffer.alloc(MAX_MCP_DRAINED_BYTES, 0x20) });
    expect(drained.status).toBe(413);
    expect(await drained.json()).toMatchObject({ error: { data: { code: "too-large" } } });
    // Declared past the drain cap: answered before any of the body is sent (the client here sends none).
    const refused = await send(mf.server.port, { headers: headers(mf, { "content-length": String(MAX_MCP_DRAINED_BYTES + 1) }), body: "" });
    expect(refused.status).toBe(413);
    expect(refused.headers.connection).toBe("close");
  });

  it("401 and 403 answer in the same JSON-RPC shape, with their own codes", async () => {
    mf = await startMcpFixture();
    const unauthorized = await send(mf.server.port, { headers: headers(mf, { authorization: "Bearer nope" }), body: INIT });
    expect(JSON.parse(unauthorized.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32000, data: { code: "unauthorized" } }, id: null });
    const forbidden = await send(mf.server.port, { headers: headers(mf, { origin: "https://evil.example" }), body: INIT });
    expect(JSON.parse(forbidden.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32000, data: { code: "forbidden" } }, id: null });
  });

  it("GET is 405, other paths 404, bad JSON is a parse error", async () => {
    mf = await startMcpFixture();
    expect((await send(mf.server.port, { method: "GET", headers: headers(mf, { accept: "text/event-stream" }) })).status).toBe(405);
    expect((await send(mf.server.port, { path: "/other", headers: headers(mf), body: INIT })).status).toBe(404);
    const junk = await send(mf.server.port, { headers: headers(mf), body: "{not json" });
    expect(junk.status).toBe(400);
    expect(JSON.parse(junk.body).error.code).toBe(-32700);
  });

  it("serves exactly MCP_PATH (query allowed); a path one character longer or shorter is 404", async () => {
    mf = await startMcpFixture();
    expect(new URL(mf.server.url).pathname).toBe(MCP_PATH);
    expect((await send(mf.server.port, { path: MCP_PATH, headers: headers(mf), body: INIT })).status).toBe(200);
    expect((await send(mf.server.port, { path: `${MCP_PATH}?x=1`, headers: headers(mf), body: INIT })).status).toBe(200);
    expect((await send(mf.server.port, { path: `${MCP_PATH}/`, headers: headers(mf), body: INIT })).status).toBe(404);
    expect((await send(mf.server.port, { path: MCP_PATH.slice(0, -1), headers: headers(mf), body: INIT })).status).toBe(404);
  });
});
