/**
 * The vocabulary shared by the fake OpenAI's files and its users: what a Chat Completions request looks like on the
 * wire (only the fields the fake reads or tests assert on; the rest pass through untyped) and what a test may script
 * as the model's answer. Kept free of node:http so a test in another process can import it for its control client.
 */
import type { IncomingHttpHeaders } from "node:http";

export type ChatRole = "system" | "developer" | "user" | "assistant" | "tool";

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A part of a multi-part `content` (OpenAI allows an array of parts instead of a string). */
export interface ChatContentPart {
  type: string;
  text?: string;
  [key: string]: unknown;
}

export interface ChatMessage {
  role: ChatRole;
  content?: string | ChatContentPart[] | null;
  name?: string;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  [key: string]: unknown;
}

export interface ChatTool {
  type: "function";
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ChatTool[];
  tool_choice?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean } | null;
  [key: string]: unknown;
}

/** A completion request that passed auth and validation, i.e. one the "model" saw. */
export interface RecordedRequest {
  body: ChatCompletionRequest;
  headers: IncomingHttpHeaders;
  /** Epoch ms when the fake received it. */
  at: number;
}

/** A request the fake turned away before any scripted reply was used (bad key, bad body, unknown model). */
export interface RejectedRequest {
  method: string;
  path: string;
  status: number;
  /** The error message sent back, so a test can tell why. */
  message: string;
  headers: IncomingHttpHeaders;
  at: number;
}

/**
 * Stream `text` in `chunks` content pieces (default 3, fewer if the text is shorter), `delayMs` apart. With
 * `holdAfterChunks`, the stream holds after that many content pieces until the test releases it (`release()`), the
 * client aborts it or the fake closes: a model that is mid-stream for exactly as long as a test needs, without timing.
 */
export interface TextReply {
  text: string;
  chunks?: number;
  delayMs?: number;
  holdAfterChunks?: number;
}

export interface ScriptedToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** Defaults to a fresh `call_fake…` id. */
  id?: string;
}

/** The model asks for tool calls; each call's arguments JSON is streamed in `chunks` pieces (default 2). */
export interface ToolCallsReply {
  toolCalls: ScriptedToolCall[];
  chunks?: number;
  delayMs?: number;
}

export type ScriptedErrorStatus = 400 | 401 | 429 | 500;

/** An HTTP error with an OpenAI error body; a 429 carries Retry-After (`retryAfterSeconds`, default 1). */
export interface ErrorReply {
  error: ScriptedErrorStatus;
  message?: string;
  retryAfterSeconds?: number;
}

/** Never answers: the request stays open until the client aborts it or the fake closes. */
export interface HangReply {
  hang: true;
}

/** A reply as plain data, which is also what the HTTP control surface accepts. */
export type ReplyContent = TextReply | ToolCallsReply | ErrorReply | HangReply;

/** A reply, or a function that picks one from the request (e.g. answer in text once a tool result is in). */
export type ScriptedReply = ReplyContent | ((request: RecordedRequest) => ReplyContent | Promise<ReplyContent>);
