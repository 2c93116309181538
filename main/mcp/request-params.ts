/**
 * Requests whose params fail the protocol's own schema (tools/call with a numeric name or no params, initialize with a
 * numeric protocolVersion...). The SDK's Protocol parses params inside the registered handler and answers a failure
 * as -32603 (internal error) with the ZodError's JSON dump as the message. An agent must instead get -32602 (invalid
 * params), one plain sentence, and our error shape (code 'invalid-input') in `data`, as for any other bad input.
 *
 * So every request is checked against the SDK's schema for its method before the Protocol sees it, and a failing one
 * is answered here through the same transport (so a batch still gets one answer per request, in the SDK's way).
 * What must stay true: the schema is the SDK's own (ClientRequestSchema), so a request passing here passes the
 * handler's parse; methods the protocol does not define pass through untouched (the SDK answers -32601); nothing an
 * agent sent is echoed beyond MAX_MCP_PARAMS_PATH_CHARS of a path.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ClientRequestSchema,
  ErrorCode,
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import { ChopinError } from "../../shared/errors.js";
import { issueWords } from "../util/issue-words.js";

type RequestSchema = (typeof ClientRequestSchema.options)[number];

/** Every client request the protocol defines, by method. */
const SCHEMA_OF_METHOD: ReadonlyMap<string, RequestSchema> = new Map(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema] as const),
);

/** The error answer for `message` when it is a request whose params its method's schema refuses; else null. */
export function invalidParamsAnswer(message: unknown): JSONRPCErrorResponse | null {
  if (!isJSONRPCRequest(message)) return null;
  const schema = SCHEMA_OF_METHOD.get(message.method);
  if (!schema) return null;
  const parsed = schema.safeParse(message);
  if (parsed.success) return null;
  const { issues, sentence } = issueWords(parsed.error.issues, `The params of this ${message.method} request are not valid`);
  const error = new ChopinError("invalid-input", sentence, { issues });
  return { jsonrpc: "2.0", id: message.id, error: { code: ErrorCode.InvalidParams, message: sentence, data: error.toJSON() } };
}

/**
 * Puts the check between `transport` and the protocol server connected to it: call after `server.connect(transport)`
 * (connect installs the server's message handler, which this wraps) and before the transport handles a request.
 */
export function refuseInvalidParams(transport: Transport): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage, extra) => {
    const answer = invalidParamsAnswer(message);
    if (answer === null) return deliver?.(message, extra);
    // The transport routes the answer to the request's HTTP response; one that is already gone has no one to tell.
    transport.send(answer).catch(() => undefined);
  };
}
