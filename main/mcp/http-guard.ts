/**
 * Checks every HTTP request must pass before the MCP protocol sees it: the Host header names this loopback port
 * (DNS rebinding: a hostile page's name resolving to 127.0.0.1 still carries its own Host), an Origin, when a
 * browser sends one, is a loopback origin, the bearer token matches, and the body stays within
 * MAX_MCP_REQUEST_BYTES. Each refusal is a plain HTTP status with a JSON error body.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_MCP_REQUEST_BYTES } from "../../shared/limits.js";
import { bearerTokenOf, tokensEqual } from "./token.js";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function hostAllowed(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
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

export function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

export class BodyTooLarge extends Error {}

/** Reads the body, refusing (BodyTooLarge) as soon as it passes the cap, without buffering past it. */
export async function readBody(req: IncomingMessage, cap = MAX_MCP_REQUEST_BYTES): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > cap) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > cap) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
