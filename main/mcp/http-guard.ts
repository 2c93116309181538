/**
 * Checks every HTTP request must pass before the MCP protocol sees it: the Host header names this loopback port
 * (DNS rebinding: a hostile page's name resolving to 127.0.0.1 still carries its own Host), an Origin, when a
 * browser sends one, is a loopback origin, the bearer token matches, and the body stays within
 * MAX_MCP_REQUEST_BYTES. Each refusal is its HTTP status with a JSON-RPC error body (id null) whose data.code is one
 * of our error codes, so an agent can tell the refusals apart without parsing the sentence.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ErrorCode } from "../../shared/errors.js";
import { MAX_DOCUMENT_MARKDOWN_BYTES } from "../../shared/limits.js";
import { MAX_MCP_DRAINED_BYTES, MAX_MCP_REQUEST_BYTES } from "../util/limits.js";
import { bearerTokenOf, tokensEqual } from "./token.js";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function hostAllowed(host: string | undefined, port: number): boolean {
  // Host names are case-insensitive (RFC 9110): LOCALHOST is this machine too.
  const name = host?.toLowerCase();
  return name === `127.0.0.1:${port}` || name === `localhost:${port}`;
}

/** Absent is fine (non-browser clients); present must be http(s) on a loopback host. */
export function originAllowed(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

export function authorized(header: string | undefined, token: string): boolean {
  const presented = bearerTokenOf(header);
  return presented !== null && tokensEqual(presented, token);
}

/** JSON-RPC's "server error" code, for refusals made before any request was read (so `id` is null). */
export const TRANSPORT_REFUSAL_RPC_CODE = -32000;

/** Answers `status` with a JSON-RPC error body whose `data.code` is our error code and `message` a sentence. */
export function refuse(
  res: ServerResponse,
  status: number,
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
  rpcCode = TRANSPORT_REFUSAL_RPC_CODE,
): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: rpcCode, message, data: { code } }, id: null }));
}

/** The 413 sentence: names the limit, so an agent knows how much smaller to go. */
export const BODY_TOO_LARGE_MESSAGE =
  `The request body is larger than ${MAX_MCP_REQUEST_BYTES} bytes (${MAX_MCP_REQUEST_BYTES / 1024} KiB), the most ` +
  "Chopin's MCP server accepts in one request; send a smaller request. A document's Markdown is at most " +
  `${MAX_DOCUMENT_MARKDOWN_BYTES / 1024} KiB of UTF-8, but escaped as \\uXXXX in JSON, text outside ASCII takes up to three ` +
  "times its size: send it as plain UTF-8.";

export class BodyTooLarge extends Error {}

/**
 * Reads the body. One over `cap` is refused (BodyTooLarge) after the rest of it is read and dropped, up to
 * `drainCap`, so the client is done sending and reads the 413; nothing past `cap` is kept in memory.
 */
export async function readBody(req: IncomingMessage, cap = MAX_MCP_REQUEST_BYTES, drainCap = MAX_MCP_DRAINED_BYTES): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > drainCap) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > drainCap) throw new BodyTooLarge();
    if (size <= cap) chunks.push(chunk as Buffer);
  }
  if (size > cap) throw new BodyTooLarge();
  return Buffer.concat(chunks);
}
