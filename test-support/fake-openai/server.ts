/**
 * A fake OpenAI-compatible Chat Completions server on 127.0.0.1 for tests, used as a BYOK "openai" provider
 * (wireApi "completions", baseUrl `${url}`): `POST /v1/chat/completions` (JSON or SSE stream), `GET /v1/models`,
 * bearer-key auth, and a script of replies consumed one per accepted completion request. Plain Node http, no
 * test-framework imports, so vitest, Playwright and the CLI all start it the same way. What must stay true: it never
 * crashes on bad input (OpenAI-style 4xx instead), and close() ends hung and streaming responses and frees the port.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { CONTROL_PREFIX, runControl } from "./control.js";
import {
  answerOutput,
  checkReply,
  completionObject,
  errorBody,
  scriptedError,
  streamChunks,
  usageChunk,
  usageFor,
  validateRequest,
  type Answer,
  type ResponseMeta,
} from "./protocol.js";
import { FakeOpenAIState } from "./state.js";
import type { RecordedRequest, RejectedRequest, ReplyContent, ScriptedReply } from "./types.js";

export interface FakeOpenAIOptions {
  /** The key clients must send as `Authorization: Bearer <key>`. */
  apiKey?: string;
  /** Model ids served by /v1/models and accepted by completions; any other model is a 404 as on OpenAI. */
  models?: string[];
  /** Used when the script is empty; text "ok" when absent. */
  defaultReply?: ScriptedReply;
  /** 0 (the default) picks a free port. */
  port?: number;
}

export interface FakeOpenAI {
  /** Base URL including `/v1`, e.g. http://127.0.0.1:PORT/v1, as an OpenAI client's baseURL. */
  url: string;
  port: number;
  apiKey: string;
  models: readonly string[];
  state: FakeOpenAIState;
  /** Appends replies to the script; each accepted completion request takes the next one. */
  script(...replies: ScriptedReply[]): void;
  setDefaultReply(reply: ScriptedReply): void;
  /** Accepted completion requests in arrival order (recorded before the reply is sent, so hung ones are in). */
  readonly requests: RecordedRequest[];
  /** Requests turned away by auth or validation. */
  readonly rejected: RejectedRequest[];
  /** All API requests received, including /v1/models and rejected ones. */
  readonly requestCount: number;
  readonly pendingReplies: number;
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Lets every stream held by `holdAfterChunks` go on; answers how many were held. */
  release(): number;
  /** Resolves once a stream holds. */
  whenHeld(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_API_KEY = "sk-fake-openai-test-key";
export const DEFAULT_MODELS = ["fake-gpt"];
const DEFAULT_REPLY: ReplyContent = { text: "ok" };
/** Conversations with tool schemas and history get large; far beyond this is a runaway client, not a test. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** The `created` of listed models; any fixed past epoch works, a fixed one keeps responses deterministic. */
const MODEL_CREATED_EPOCH_SECONDS = 1_700_000_000;

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * One HTTP exchange: `closed` flips synchronously when the response is finished or its connection goes away (client
 * abort or close()), so streaming loops and hangs stop instead of writing into a dead socket.
 */
class Exchange {
  closed = false;
  readonly ended: Promise<void>;

  constructor(readonly res: ServerResponse) {
    this.ended = new Promise((resolve) =>
      res.once("close", () => {
        this.closed = true;
        resolve();
      }),
    );
    // A write racing a reset connection must not become an unhandled 'error' that kills the test process.
    res.on("error", () => {});
  }

  json(status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (this.closed || this.res.headersSent) return;
    this.res.writeHead(status, { "content-type": "application/json", ...headers });
    this.res.end(JSON.stringify(body));
  }

  /** Waits `ms`, or less if the exchange closes first. */
  pause(ms: number): Promise<void> {
    if (ms <= 0 || this.closed) return Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), this.ended]).finally(() => clearTimeout(timer));
  }
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const apiKey = options.apiKey ?? DEFAULT_API_KEY;
  const models = [...(options.models ?? DEFAULT_MODELS)];
  const state = new FakeOpenAIState(options.defaultReply ?? DEFAULT_REPLY);
  const sockets = new Set<Socket>();
  let origin = "";
  let seq = 0;
  const nextId = (prefix: string) => `${prefix}${String(++seq).padStart(6, "0")}`;

  const reject = (ex: Exchange, req: IncomingMessage, status: number, body: ReturnType<typeof errorBody>, headers?: Record<string, string>) => {
    const path = new URL(req.url ?? "/", origin).pathname;
    state.rejected.push({ method: req.method ?? "GET", path, status, message: body.error.message, headers: req.headers, at: Date.now() });
    ex.json(status, body, headers);
  };

  const authError = (authorization: string | undefined) => {
    const token = /^Bearer\s+(.+)$/i.exec(authorization ?? "")?.[1]?.trim();
    if (!token) {
      return errorBody(
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
        "invalid_request_error",
      );
    }
    if (token !== apiKey) return errorBody("Incorrect API key provided (fake OpenAI).", "invalid_request_error", "invalid_api_key");
    return null;
  };

  const modelJson = (id: string) => ({ id, object: "model", created: MODEL_CREATED_EPOCH_SECONDS, owned_by: "fake-openai" });

  const completions = async (ex: Exchange, req: IncomingMessage, raw: string) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return reject(ex, req, 400, errorBody("We could not parse the JSON body of your request. The fake OpenAI expects a JSON payload.", "invalid_request_error"));
    }
    const v = validateRequest(parsed);
    if (!v.ok) return reject(ex, req, 400, errorBody(v.message, "invalid_request_error", v.code, v.param));
    const body = v.request;
    if (!models.includes(body.model)) {
      const message = `The model \`${body.model}\` does not exist or you do not have access to it. (fake OpenAI serves: ${models.join(", ")})`;
      return reject(ex, req, 404, errorBody(message, "invalid_request_error", "model_not_found", "model"));
    }
    const recorded: RecordedRequest = { body, headers: req.headers, at: Date.now() };
    state.record(recorded);

    let reply: ReplyContent;
    try {
      const scripted = state.takeReply();
      reply = typeof scripted === "function" ? checkReply(await scripted(recorded)) : scripted;
    } catch (e) {
      return ex.json(500, errorBody(`fake OpenAI script error: ${(e as Error).message}`, "server_error"));
    }
    if ("hang" in reply) return ex.ended;
    const requestId = nextId("req_fake");
    if ("error" in reply) {
      const { status, body: errBody, headers } = scriptedError(reply);
      return ex.json(status, errBody, { ...headers, "x-request-id": requestId });
    }

    const answer: Answer =
      "text" in reply
        ? { kind: "text", reply }
        : { kind: "tools", reply, calls: reply.toolCalls.map((c) => ({ id: c.id ?? nextId("call_fake"), name: c.name, arguments: JSON.stringify(c.arguments) })) };
    const meta: ResponseMeta = { id: nextId("chatcmpl-fake"), created: Math.floor(Date.now() / 1000), model: body.model };
    const usage = usageFor(body, answerOutput(answer));
    const delayMs = reply.delayMs ?? 0;

    if (body.stream !== true) {
      // Unstreamed, the whole answer waits once, as if the model took delayMs to produce it.
      await ex.pause(delayMs);
      if ("holdAfterChunks" in reply && reply.holdAfterChunks !== undefined) await state.hold(ex.ended);
      return ex.json(200, completionObject(meta, answer, usage), { "x-request-id": requestId });
    }

    const includeUsage = body.stream_options?.include_usage === true;
    if (ex.closed) return;
    ex.res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive", "x-request-id": requestId });
    const events = [...streamChunks(meta, answer, includeUsage), ...(includeUsage ? [usageChunk(meta, usage)] : [])];
    // The first event is the role chunk, then the content pieces: hold before the piece after the held-after ones.
    const holdAt = "holdAfterChunks" in reply && reply.holdAfterChunks !== undefined ? 1 + reply.holdAfterChunks : -1;
    for (const [i, event] of events.entries()) {
      if (i > 0) await ex.pause(delayMs);
      if (i === holdAt && !ex.closed) await state.hold(ex.ended);
      if (ex.closed) return;
      ex.res.write(`data: ${JSON.stringify(event)}\n\n`);
    }
    if (!ex.closed) ex.res.end("data: [DONE]\n\n");
  };

  const handle = async (req: IncomingMessage, ex: Exchange) => {
    const url = new URL(req.url ?? "/", origin);
    const method = req.method ?? "GET";
    let raw: string;
    try {
      raw = await readBody(req);
    } catch (e) {
      // The rest of the body is unread, so this connection cannot carry another request.
      if (e instanceof BodyTooLarge) return reject(ex, req, 413, errorBody(`Request body larger than ${MAX_BODY_BYTES} bytes.`, "invalid_request_error"), { connection: "close" });
      throw e;
    }

    if (url.pathname.startsWith(CONTROL_PREFIX)) {
      try {
        const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
        const out = await runControl(state, url.pathname.slice(CONTROL_PREFIX.length), body);
        return out ? ex.json(200, out) : ex.json(404, errorBody(`Unknown control action ${url.pathname}`, "invalid_request_error"));
      } catch (e) {
        return ex.json(400, errorBody((e as Error).message, "invalid_request_error"));
      }
    }

    state.requestCount++;
    const denied = authError(req.headers.authorization);
    if (denied) return reject(ex, req, 401, denied);

    const path = url.pathname.replace(/\/+$/, "");
    if (method === "POST" && path === "/v1/chat/completions") return completions(ex, req, raw);
    if (method === "GET" && path === "/v1/models") return ex.json(200, { object: "list", data: models.map(modelJson) });
    const model = method === "GET" ? /^\/v1\/models\/(.+)$/.exec(path)?.[1] : undefined;
    if (model !== undefined) {
      const id = decodeURIComponent(model);
      if (models.includes(id)) return ex.json(200, modelJson(id));
      return reject(ex, req, 404, errorBody(`The model '${id}' does not exist`, "invalid_request_error", "model_not_found", "model"));
    }
    return reject(ex, req, 404, errorBody(`Invalid URL (${method} ${url.pathname})`, "invalid_request_error"));
  };

  const server = createServer((req, res) => {
    const ex = new Exchange(res);
    handle(req, ex).catch((e) => ex.json(500, errorBody(`fake OpenAI bug: ${(e as Error).message}`, "server_error")));
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, rejectListen) => {
    server.once("error", rejectListen);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", rejectListen);
      resolve();
    });
  });
  const port = (server.address() as { port: number }).port;
  origin = `http://127.0.0.1:${port}`;

  let closing: Promise<void> | null = null;
  return {
    url: `${origin}/v1`,
    port,
    apiKey,
    models,
    state,
    script: (...replies) => state.script(replies),
    setDefaultReply: (reply) => state.setDefaultReply(reply),
    get requests() {
      return state.requests;
    },
    get rejected() {
      return state.rejected;
    },
    get requestCount() {
      return state.requestCount;
    },
    get pendingReplies() {
      return state.pendingReplies;
    },
    waitForRequests: (count, timeoutMs) => state.waitForRequests(count, timeoutMs),
    release: () => state.release(),
    whenHeld: () => state.whenHeld(),
    // Destroying the sockets is what ends hung and mid-stream responses; server.close alone would wait for them.
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      })),
  };
}
