/**
 * What the SDK's Streamable HTTP transport would refuse with a bare JSON-RPC error (a terse message, no data.code),
 * checked first so the refusal has our shape and a sentence, like every other refusal of this port (http-guard.ts).
 * What must stay true: each check is the transport's own condition (its media-type parser, its supported protocol
 * versions, its message schema, its batch rules), so a request passing here is never refused by the transport for
 * these reasons, and one refused here would have been refused there too.
 */
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import { isInitializeRequest, JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { ErrorCode } from "../../shared/errors.js";

export interface TransportRefusal {
  status: number;
  /** JSON-RPC error code: -32700 unparsable, -32600 not a valid request, -32000 the transport's own. */
  rpcCode: number;
  code: ErrorCode;
  message: string;
}

const refusal = (status: number, rpcCode: number, code: ErrorCode, message: string): TransportRefusal => ({ status, rpcCode, code, message });

/** Accept and Content-Type of a POST, before its body is read. */
export function headerRefusal(accept: string | undefined, contentType: string | undefined): TransportRefusal | null {
  // A substring check, as the transport does: Accept is a comma-separated list.
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) {
    return refusal(406, -32000, "invalid-input", "Not acceptable: send Accept: application/json, text/event-stream (the MCP Streamable HTTP transport requires both).");
  }
  if (!isJsonContentType(contentType)) {
    return refusal(415, -32000, "invalid-input", "Unsupported media type: send the request as Content-Type: application/json.");
  }
  return null;
}

/** The parsed body and the Mcp-Protocol-Version header. */
export function bodyRefusal(body: unknown, protocolVersion: string | undefined): TransportRefusal | null {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return refusal(400, -32600, "invalid-input", "Invalid request: an empty batch holds no JSON-RPC message.");
  if (!messages.every((message) => JSONRPCMessageSchema.safeParse(message).success)) {
    return refusal(400, -32700, "invalid-input", "Invalid request: the body is JSON but not a JSON-RPC 2.0 message (or a list of them).");
  }
  const initializing = messages.some(isInitializeRequest);
  if (initializing && messages.length > 1) {
    return refusal(400, -32600, "invalid-input", "Invalid request: initialize must be sent alone, not in a batch.");
  }
  if (!initializing && protocolVersion !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)) {
    return refusal(
      400,
      -32000,
      "invalid-input",
      `Unsupported MCP protocol version ${JSON.stringify(protocolVersion.slice(0, 40))}; this server speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}.`,
    );
  }
  return null;
}
