/**
 * The Chat Completions wire format as the fake speaks it, apart from the HTTP plumbing so the shapes can be checked
 * against OpenAI's API reference in one place: request validation (including the tool-call pairing rules OpenAI
 * enforces, so a client bug that the real API would reject fails here too), error bodies, `chat.completion` objects
 * and `chat.completion.chunk` streams. What must stay true: every field a stock OpenAI client reads is present with its
 * documented type, null rather than absent where OpenAI sends null.
 */
import type {
  ChatCompletionRequest,
  ChatContentPart,
  ChatMessage,
  ErrorReply,
  ReplyContent,
  ScriptedErrorStatus,
  TextReply,
  ToolCallsReply,
} from "./types.js";

export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export const errorBody = (message: string, type: string, code: string | null = null, param: string | null = null): OpenAIErrorBody => ({
  error: { message, type, param, code },
});

/** Text pieces per streamed answer when the script does not say, so clients always have to join several deltas. */
export const DEFAULT_TEXT_CHUNKS = 3;
/** Pieces each tool call's arguments JSON is cut into, so clients have to join argument deltas too. */
export const DEFAULT_ARGUMENT_CHUNKS = 2;
/** Short enough that a client honouring Retry-After keeps a test fast, long enough to be observable. */
export const DEFAULT_RETRY_AFTER_SECONDS = 1;
/** OpenAI sends one; clients only log it, so any stable value does. */
const SYSTEM_FINGERPRINT = "fp_fake_openai";
/** OpenAI's pattern for function names; a real request with any other name is a 400. */
const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);

/** Type and code per scripted status, as OpenAI labels these errors. */
const SCRIPTED_ERRORS: Record<ScriptedErrorStatus, { type: string; code: string | null; message: string }> = {
  400: { type: "invalid_request_error", code: null, message: "Invalid request (scripted by the fake OpenAI)." },
  401: { type: "invalid_request_error", code: "invalid_api_key", message: "Incorrect API key provided (scripted by the fake OpenAI)." },
  429: { type: "requests", code: "rate_limit_exceeded", message: "Rate limit reached for requests (scripted by the fake OpenAI)." },
  500: { type: "server_error", code: null, message: "The server had an error while processing your request (scripted by the fake OpenAI)." },
};

export function scriptedError(reply: ErrorReply): { status: number; body: OpenAIErrorBody; headers: Record<string, string> } {
  const kind = SCRIPTED_ERRORS[reply.error];
  const headers: Record<string, string> = {};
  if (reply.error === 429) {
    const seconds = reply.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
    headers["retry-after"] = String(seconds);
    headers["x-ratelimit-remaining-requests"] = "0";
    headers["x-ratelimit-reset-requests"] = `${seconds}s`;
  }
  return { status: reply.error, body: errorBody(reply.message ?? kind.message, kind.type, kind.code), headers };
}

export type Validation = { ok: true; request: ChatCompletionRequest } | { ok: false; message: string; param: string | null; code: string | null };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const invalid = (message: string, param: string | null = null, code: string | null = null): Validation => ({ ok: false, message, param, code });

/** Checks a parsed body the way the real endpoint would before any model runs. */
export function validateRequest(body: unknown): Validation {
  if (!isObject(body)) return invalid("The request body must be a JSON object.");
  if (body.model === undefined) return invalid("you must provide a model parameter", "model", "missing_required_parameter");
  if (typeof body.model !== "string") return invalid("Invalid type for 'model': expected a string.", "model", "invalid_type");
  if (body.messages === undefined) return invalid("Missing required parameter: 'messages'.", "messages", "missing_required_parameter");
  if (!Array.isArray(body.messages)) return invalid("Invalid type for 'messages': expected an array.", "messages", "invalid_type");
  if (body.messages.length === 0) return invalid("Invalid 'messages': empty array. Expected at least one message.", "messages", "empty_array");
  for (const [i, m] of body.messages.entries()) {
    if (!isObject(m)) return invalid(`Invalid type for 'messages[${i}]': expected an object.`, `messages[${i}]`, "invalid_type");
    if (typeof m.role !== "string" || !ROLES.has(m.role)) {
      return invalid(`Invalid value for 'messages[${i}].role': ${JSON.stringify(m.role)}.`, `messages[${i}].role`, "invalid_value");
    }
  }
  const pairing = checkToolPairing(body.messages as ChatMessage[]);
  if (pairing) return pairing;
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools)) return invalid("Invalid type for 'tools': expected an array.", "tools", "invalid_type");
    for (const [i, t] of body.tools.entries()) {
      if (!isObject(t) || t.type !== "function" || !isObject(t.function)) {
        return invalid(`Invalid 'tools[${i}]': expected {type: "function", function: {...}}.`, `tools[${i}]`, "invalid_value");
      }
      const name = t.function.name;
      if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
        return invalid(
          `Invalid 'tools[${i}].function.name': ${JSON.stringify(name)} does not match pattern '${TOOL_NAME_PATTERN.source}'.`,
          `tools[${i}].function.name`,
          "invalid_value",
        );
      }
    }
  }
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== "boolean") {
    return invalid("Invalid type for 'stream': expected a boolean.", "stream", "invalid_type");
  }
  return { ok: true, request: body as ChatCompletionRequest };
}

/**
 * OpenAI's two pairing rules: a tool message must answer a tool call of an earlier assistant message, and every tool
 * call of an assistant message must be answered by the tool messages right after it.
 */
function checkToolPairing(messages: ChatMessage[]): Validation | null {
  let open = new Set<string>();
  for (const [i, m] of messages.entries()) {
    if (m.role === "tool") {
      if (typeof m.tool_call_id !== "string" || !open.has(m.tool_call_id)) {
        return invalid(
          `Invalid parameter: messages with role 'tool' must be a response to a preceding message with 'tool_calls' (messages[${i}].tool_call_id ${JSON.stringify(m.tool_call_id)}).`,
          `messages.[${i}].role`,
        );
      }
      open.delete(m.tool_call_id);
      continue;
    }
    if (open.size > 0) {
      return invalid(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(", ")}`,
        `messages.[${i}].role`,
      );
    }
    if (m.role === "assistant" && Array.isArray(m.tool_calls)) {
      open = new Set(m.tool_calls.map((c) => c?.id).filter((id): id is string => typeof id === "string"));
    }
  }
  if (open.size > 0) {
    return invalid(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(", ")}`,
      "messages",
    );
  }
  return null;
}

/** Checks a reply given as data (from a test or the control surface) so a typo fails loudly at script time. */
export function checkReply(value: unknown): ReplyContent {
  if (!isObject(value)) throw new Error(`a scripted reply must be an object, got ${JSON.stringify(value)}`);
  const kinds = ["text", "toolCalls", "error", "hang"].filter((k) => k in value);
  if (kinds.length !== 1) throw new Error(`a scripted reply needs exactly one of text, toolCalls, error, hang; got ${JSON.stringify(value)}`);
  const positiveInt = (v: unknown) => v === undefined || (Number.isInteger(v) && (v as number) > 0);
  const delay = (v: unknown) => v === undefined || (typeof v === "number" && Number.isFinite(v) && v >= 0);
  if (!positiveInt(value.chunks) || !delay(value.delayMs)) throw new Error(`bad chunks/delayMs in ${JSON.stringify(value)}`);
  if (value.holdAfterChunks !== undefined && (!("text" in value) || !positiveInt(value.holdAfterChunks))) throw new Error(`holdAfterChunks must be a positive integer on a text reply in ${JSON.stringify(value)}`);
  switch (kinds[0]) {
    case "text":
      if (typeof value.text !== "string") throw new Error(`text must be a string in ${JSON.stringify(value)}`);
      break;
    case "toolCalls": {
      const calls = value.toolCalls;
      const good = (c: unknown) => isObject(c) && typeof c.name === "string" && isObject(c.arguments) && (c.id === undefined || typeof c.id === "string");
      if (!Array.isArray(calls) || calls.length === 0 || !calls.every(good)) {
        throw new Error(`toolCalls must be a non-empty array of {name, arguments: object, id?} in ${JSON.stringify(value)}`);
      }
      break;
    }
    case "error":
      if (typeof value.error !== "number" || !Object.hasOwn(SCRIPTED_ERRORS, value.error)) throw new Error(`error must be one of ${Object.keys(SCRIPTED_ERRORS).join(", ")}`);
      if (value.message !== undefined && typeof value.message !== "string") throw new Error("error message must be a string");
      if (!delay(value.retryAfterSeconds)) throw new Error("retryAfterSeconds must be a number >= 0");
      break;
    case "hang":
      if (value.hang !== true) throw new Error("hang must be true");
      break;
  }
  return value as unknown as ReplyContent;
}

/** Cuts text into `pieces` non-empty parts of near-equal length, never inside a surrogate pair. */
export function splitText(text: string, pieces: number): string[] {
  const chars = Array.from(text);
  if (chars.length === 0) return [];
  const n = Math.max(1, Math.min(pieces, chars.length));
  return Array.from({ length: n }, (_, i) => chars.slice(Math.floor((i * chars.length) / n), Math.floor(((i + 1) * chars.length) / n)).join(""));
}

/** The text of a message whether `content` is a string or an array of parts; handy in reply functions. */
export function messageText(message: ChatMessage | undefined): string {
  const content = message?.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((p: ChatContentPart) => (typeof p.text === "string" ? p.text : "")).join("");
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

/** Characters per token for the rough, deterministic counts; no test should depend on exact numbers. */
const CHARS_PER_TOKEN = 4;

export function usageFor(request: ChatCompletionRequest, output: string): Usage {
  const prompt = Math.ceil(JSON.stringify(request.messages).length / CHARS_PER_TOKEN);
  const completion = Math.ceil(output.length / CHARS_PER_TOKEN);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

/** Per-response identity shared by every chunk of one stream, as OpenAI repeats id/created/model on each. */
export interface ResponseMeta {
  id: string;
  created: number;
  model: string;
}

/** A tool call with its id settled and its arguments serialised, ready for either response form. */
export interface ResolvedToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type Answer = { kind: "text"; reply: TextReply } | { kind: "tools"; reply: ToolCallsReply; calls: ResolvedToolCall[] };

export const answerOutput = (a: Answer): string =>
  a.kind === "text" ? a.reply.text : a.calls.map((c) => c.name + c.arguments).join("");

export function completionObject(meta: ResponseMeta, answer: Answer, usage: Usage) {
  const message =
    answer.kind === "text"
      ? { role: "assistant", content: answer.reply.text, refusal: null, annotations: [] }
      : {
          role: "assistant",
          content: null,
          refusal: null,
          annotations: [],
          tool_calls: answer.calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
        };
  return {
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: [{ index: 0, message, logprobs: null, finish_reason: answer.kind === "text" ? "stop" : "tool_calls" }],
    usage,
  };
}

/**
 * The chunks of one streamed answer, in order, without the usage chunk and [DONE]: a role chunk, the content or
 * tool-call deltas (each call opens with index, id, type and name, then its arguments arrive in pieces under the same
 * index), and a last chunk with an empty delta and the finish_reason. With include_usage every chunk carries
 * `usage: null`, as OpenAI's do.
 */
export function streamChunks(meta: ResponseMeta, answer: Answer, includeUsage: boolean): object[] {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    id: meta.id,
    object: "chat.completion.chunk",
    created: meta.created,
    model: meta.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  });
  if (answer.kind === "text") {
    const pieces = splitText(answer.reply.text, answer.reply.chunks ?? DEFAULT_TEXT_CHUNKS);
    return [chunk({ role: "assistant", content: "", refusal: null }), ...pieces.map((p) => chunk({ content: p })), chunk({}, "stop")];
  }
  const out: object[] = [];
  answer.calls.forEach((call, index) => {
    const opening = { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } };
    out.push(chunk(index === 0 ? { role: "assistant", content: null, tool_calls: [opening] } : { tool_calls: [opening] }));
    for (const piece of splitText(call.arguments, answer.reply.chunks ?? DEFAULT_ARGUMENT_CHUNKS)) {
      out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  out.push(chunk({}, "tool_calls"));
  return out;
}

export function usageChunk(meta: ResponseMeta, usage: Usage) {
  return {
    id: meta.id,
    object: "chat.completion.chunk",
    created: meta.created,
    model: meta.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: [],
    usage,
  };
}
