/**
 * The fake OpenAI checked the way its users meet it: plain fetch over HTTP (and the CLI as a child process), with
 * streams reassembled from the SSE bytes as an OpenAI client would, so a shape mistake shows up here and not as a
 * puzzling failure in a runtime test. Waits are on conditions (recorded requests, stream reads), never on sleeps.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectFakeOpenAI } from "./control.js";
import { messageText } from "./protocol.js";
import { startFakeOpenAI, type FakeOpenAI } from "./server.js";
import { waitFor } from "../../shared/wait-for.js";

let fake: FakeOpenAI;

beforeEach(async () => {
  fake = await startFakeOpenAI({ models: ["fake-gpt", "fake-gpt-mini"] });
});
afterEach(async () => {
  await fake.close();
});

const user = (content: string) => ({ role: "user", content });

function post(body: unknown, init: { key?: string | null; signal?: AbortSignal; raw?: string } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const key = init.key === undefined ? fake.apiKey : init.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  return fetch(`${fake.url}/chat/completions`, { method: "POST", headers, body: init.raw ?? JSON.stringify(body), signal: init.signal });
}

interface Chunk {
  id: string;
  object: string;
  model: string;
  choices: { index: number; delta: Record<string, unknown>; finish_reason: string | null }[];
  usage?: unknown;
}

/** Splits an SSE body into its `data:` payloads, the last of which should be the literal [DONE]. */
async function ssePayloads(res: Response): Promise<string[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      expect(block.startsWith("data: ")).toBe(true);
      return block.slice("data: ".length);
    });
}

function reassemble(chunks: Chunk[]) {
  let content = "";
  const calls: { id?: string; type?: string; name: string; arguments: string; pieces: number }[] = [];
  for (const c of chunks) {
    const delta = c.choices[0]?.delta ?? {};
    if (typeof delta.content === "string") content += delta.content;
    for (const t of (delta.tool_calls as { index: number; id?: string; type?: string; function?: { name?: string; arguments?: string } }[]) ?? []) {
      const call = (calls[t.index] ??= { name: "", arguments: "", pieces: 0 });
      if (t.id) call.id = t.id;
      if (t.type) call.type = t.type;
      if (t.function?.name) call.name += t.function.name;
      if (t.function?.arguments) {
        call.arguments += t.function.arguments;
        call.pieces++;
      }
    }
  }
  return { content, calls };
}

describe("chat completions", () => {
  it("answers a non-streamed request with a chat.completion object", async () => {
    fake.script({ text: "Hello there" });
    const res = await post({ model: "fake-gpt", messages: [user("hi")] });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = (await res.json()) as Record<string, any>;
    expect(body.object).toBe("chat.completion");
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(body.model).toBe("fake-gpt");
    expect(body.choices).toEqual([
      { index: 0, message: { role: "assistant", content: "Hello there", refusal: null, annotations: [] }, logprobs: null, finish_reason: "stop" },
    ]);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
  });

  it("uses the default reply when the script is empty", async () => {
    const body = (await (await post({ model: "fake-gpt", messages: [user("hi")] })).json()) as Record<string, any>;
    expect(body.choices[0].message.content).toBe("ok");
  });

  it("streams text as chunk deltas that reassemble to the scripted text, then [DONE]", async () => {
    fake.script({ text: "The quick brown fox 🦊 jumps", chunks: 4 });
    const res = await post({ model: "fake-gpt", messages: [user("hi")], stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const payloads = await ssePayloads(res);
    expect(payloads.at(-1)).toBe("[DONE]");
    const chunks = payloads.slice(0, -1).map((p) => JSON.parse(p) as Chunk);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.model === "fake-gpt" && c.usage === undefined)).toBe(true);
    expect(chunks[0].choices[0].delta.role).toBe("assistant");
    expect(reassemble(chunks).content).toBe("The quick brown fox 🦊 jumps");
    expect(chunks.filter((c) => typeof c.choices[0].delta.content === "string" && c.choices[0].delta.content !== "")).toHaveLength(4);
    expect(chunks.slice(0, -1).every((c) => c.choices[0].finish_reason === null)).toBe(true);
    expect(chunks.at(-1)!.choices[0]).toMatchObject({ delta: {}, finish_reason: "stop" });
  });

  it("streams tool calls whose deltas reassemble to name, id and arguments JSON, finishing with tool_calls", async () => {
    fake.script({
      toolCalls: [
        { name: "get_weather", arguments: { city: "Paris", units: "celsius" }, id: "call_abc" },
        { name: "lookup", arguments: { query: "nested \"quotes\"", n: 2 } },
      ],
    });
    const res = await post({ model: "fake-gpt", messages: [user("weather?")], stream: true });
    const payloads = await ssePayloads(res);
    expect(payloads.at(-1)).toBe("[DONE]");
    const chunks = payloads.slice(0, -1).map((p) => JSON.parse(p) as Chunk);
    const { content, calls } = reassemble(chunks);
    expect(content).toBe("");
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ id: "call_abc", type: "function", name: "get_weather" });
    expect(JSON.parse(calls[0].arguments)).toEqual({ city: "Paris", units: "celsius" });
    expect(calls[0].pieces).toBeGreaterThan(1);
    expect(calls[1].id).toMatch(/^call_/);
    expect(calls[1].name).toBe("lookup");
    expect(JSON.parse(calls[1].arguments)).toEqual({ query: "nested \"quotes\"", n: 2 });
    expect(chunks.at(-1)!.choices[0].finish_reason).toBe("tool_calls");
  });

  it("adds a usage chunk with empty choices before [DONE] when stream_options.include_usage is set", async () => {
    fake.script({ text: "counted" });
    const res = await post({ model: "fake-gpt", messages: [user("hi")], stream: true, stream_options: { include_usage: true } });
    const payloads = await ssePayloads(res);
    const chunks = payloads.slice(0, -1).map((p) => JSON.parse(p) as Chunk);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) });
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    expect(reassemble(chunks).content).toBe("counted");
  });

  it("lets a reply function answer from the messages, e.g. text once it sees a tool result", async () => {
    fake.setDefaultReply((request) => {
      const last = request.body.messages.at(-1);
      if (last?.role === "tool") return { text: `weather is ${messageText(last)}` };
      return { toolCalls: [{ name: "get_weather", arguments: { city: "Oslo" }, id: "call_1" }] };
    });
    const tools = [{ type: "function", function: { name: "get_weather", description: "Weather by city", parameters: { type: "object" } } }];
    const first = (await (await post({ model: "fake-gpt", messages: [user("weather?")], tools })).json()) as Record<string, any>;
    expect(first.choices[0].finish_reason).toBe("tool_calls");
    const assistant = first.choices[0].message;
    expect(assistant.content).toBeNull();
    expect(assistant.tool_calls).toEqual([{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }]);

    const messages = [user("weather?"), assistant, { role: "tool", tool_call_id: "call_1", content: [{ type: "text", text: "sunny" }] }];
    const second = (await (await post({ model: "fake-gpt", messages, tools })).json()) as Record<string, any>;
    expect(second.choices[0].message.content).toBe("weather is sunny");
    expect(fake.requests.map((r) => r.body.messages.length)).toEqual([1, 3]);
  });

  it("waits delayMs between streamed pieces and still delivers everything", async () => {
    fake.script({ text: "slow text", chunks: 3, delayMs: 5 });
    const payloads = await ssePayloads(await post({ model: "fake-gpt", messages: [user("hi")], stream: true }));
    expect(reassemble(payloads.slice(0, -1).map((p) => JSON.parse(p) as Chunk)).content).toBe("slow text");
  });
});

describe("auth and errors", () => {
  it("answers 401 with an OpenAI error body for a wrong or missing key, without using the script", async () => {
    fake.script({ text: "kept" });
    const wrong = await post({ model: "fake-gpt", messages: [user("hi")] }, { key: "sk-wrong" });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: { message: expect.any(String), type: "invalid_request_error", param: null, code: "invalid_api_key" } });
    const missing = await post({ model: "fake-gpt", messages: [user("hi")] }, { key: null });
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toContain("didn't provide an API key");
    expect(fake.pendingReplies).toBe(1);
    expect(fake.requests).toHaveLength(0);
    expect(fake.rejected.map((r) => r.status)).toEqual([401, 401]);
  });

  it("answers a scripted 429 with Retry-After, then the next scripted reply", async () => {
    fake.script({ error: 429, retryAfterSeconds: 7 }, { text: "after the limit" });
    const limited = await post({ model: "fake-gpt", messages: [user("hi")] });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(await limited.json()).toMatchObject({ error: { type: "requests", code: "rate_limit_exceeded", param: null } });
    const next = (await (await post({ model: "fake-gpt", messages: [user("hi")] })).json()) as Record<string, any>;
    expect(next.choices[0].message.content).toBe("after the limit");
  });

  it("answers scripted 400, 401 and 500 with OpenAI error bodies and the scripted message", async () => {
    fake.script({ error: 400, message: "context too long" }, { error: 401 }, { error: 500 });
    const statuses: number[] = [];
    const bodies: { error: { message: string; type: string } }[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await post({ model: "fake-gpt", messages: [user("hi")], stream: true });
      statuses.push(res.status);
      bodies.push((await res.json()) as { error: { message: string; type: string } });
    }
    expect(statuses).toEqual([400, 401, 500]);
    expect(bodies[0].error).toMatchObject({ message: "context too long", type: "invalid_request_error" });
    expect(bodies[2].error.type).toBe("server_error");
  });

  it("turns bad input away with 400/404 OpenAI errors and keeps serving", async () => {
    fake.script({ text: "still here" });
    const cases: [unknown, string | undefined, number, string | null][] = [
      [null, "{not json", 400, null],
      [{ model: "fake-gpt" }, undefined, 400, "messages"],
      [{ model: "fake-gpt", messages: [] }, undefined, 400, "messages"],
      [{ messages: [user("hi")] }, undefined, 400, "model"],
      [{ model: "fake-gpt", messages: [{ role: "wizard", content: "x" }] }, undefined, 400, "messages[0].role"],
      [{ model: "fake-gpt", messages: [user("hi"), { role: "tool", tool_call_id: "call_x", content: "orphan" }] }, undefined, 400, "messages.[1].role"],
      [
        { model: "fake-gpt", messages: [user("hi"), { role: "assistant", content: null, tool_calls: [{ id: "call_y", type: "function", function: { name: "f", arguments: "{}" } }] }, user("no answer")] },
        undefined,
        400,
        "messages.[2].role",
      ],
      [{ model: "fake-gpt", messages: [user("hi")], tools: [{ type: "function", function: { name: "has.dot" } }] }, undefined, 400, "tools[0].function.name"],
      [{ model: "no-such-model", messages: [user("hi")] }, undefined, 404, "model"],
    ];
    for (const [body, raw, status, param] of cases) {
      const res = await post(body, { raw });
      expect(res.status, JSON.stringify(body ?? raw)).toBe(status);
      const err = (await res.json()) as { error: { message: string; type: string; param: string | null } };
      expect(err.error.type).toBe("invalid_request_error");
      expect(err.error.param).toBe(param);
    }
    expect(fake.requests).toHaveLength(0);
    expect(fake.rejected).toHaveLength(cases.length);
    const ok = (await (await post({ model: "fake-gpt", messages: [user("hi")] })).json()) as Record<string, any>;
    expect(ok.choices[0].message.content).toBe("still here");
  });

  it("answers 500 when a reply function throws or returns a malformed reply", async () => {
    fake.script(
      () => {
        throw new Error("boom");
      },
      () => ({ txt: "typo" }) as never,
    );
    const thrown = await post({ model: "fake-gpt", messages: [user("hi")] });
    expect(thrown.status).toBe(500);
    expect(((await thrown.json()) as { error: { message: string } }).error.message).toContain("boom");
    expect((await post({ model: "fake-gpt", messages: [user("hi")] })).status).toBe(500);
  });

  it("refuses a malformed scripted reply when it is scripted", () => {
    expect(() => fake.script({ text: "fine" }, { error: 418 } as never)).toThrow(/error must be one of/);
    expect(() => fake.script({ text: "a", toolCalls: [] } as never)).toThrow(/exactly one/);
    expect(fake.pendingReplies).toBe(0);
  });

  it("answers unknown paths with OpenAI's Invalid URL 404", async () => {
    const res = await fetch(`${fake.url}/completions-typo`, { headers: { authorization: `Bearer ${fake.apiKey}` } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("Invalid URL");
  });
});

describe("hanging and closing", () => {
  it("keeps a hung request open until close() ends it", async () => {
    fake.script({ hang: true });
    const pending = post({ model: "fake-gpt", messages: [user("hi")] });
    const settled = pending.then(
      () => "answered",
      () => "failed",
    );
    await fake.waitForRequests(1);
    await fake.close();
    expect(await settled).toBe("failed");
  });

  it("a hung request ends when the client aborts it, and the next request is answered", async () => {
    fake.script({ hang: true }, { text: "next" });
    const abort = new AbortController();
    const pending = post({ model: "fake-gpt", messages: [user("hi")] }, { signal: abort.signal });
    await fake.waitForRequests(1);
    abort.abort();
    await expect(pending).rejects.toThrow();
    const body = (await (await post({ model: "fake-gpt", messages: [user("hi")] })).json()) as Record<string, any>;
    expect(body.choices[0].message.content).toBe("next");
  });

  it("ends a stream in progress when close() is called", async () => {
    fake.script({ text: "abcdef", chunks: 6, delayMs: 60_000 });
    const res = await post({ model: "fake-gpt", messages: [user("hi")], stream: true });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"role":"assistant"');
    await fake.close();
    let rest = "";
    const outcome = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return "done";
        rest += new TextDecoder().decode(value);
      }
    })().catch(() => "failed");
    expect(outcome).toBe("failed");
    expect(rest).not.toContain("[DONE]");
  });

  it("holds a stream after holdAfterChunks pieces until release(), then delivers the rest", async () => {
    fake.script({ text: "abcdef", chunks: 6, holdAfterChunks: 2 });
    const res = await post({ model: "fake-gpt", messages: [user("hi")], stream: true });
    const reader = res.body!.getReader();
    let seen = "";
    // Read until the fake holds: the role chunk and two pieces are out, nothing after them.
    await fake.whenHeld();
    while (!seen.includes('"content":"b"')) seen += new TextDecoder().decode((await reader.read()).value);
    expect(seen).not.toContain('"content":"c"');
    expect(fake.state.heldStreams).toBe(1);
    expect(fake.release()).toBe(1);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    expect(seen).toContain('"content":"f"');
    expect(seen).toContain("[DONE]");
    expect(fake.state.heldStreams).toBe(0);
  });

  it("a held stream ends when the client aborts it; nothing is left holding", async () => {
    fake.script({ text: "abcdef", chunks: 6, holdAfterChunks: 1 }, { text: "next" });
    const abort = new AbortController();
    const res = await post({ model: "fake-gpt", messages: [user("hi")], stream: true }, { signal: abort.signal });
    await fake.whenHeld();
    abort.abort();
    await expect(res.text()).rejects.toThrow();
    await waitFor(() => fake.state.heldStreams === 0, "the hold ended with the exchange", 5_000);
    const body = (await (await post({ model: "fake-gpt", messages: [user("hi")] })).json()) as Record<string, any>;
    expect(body.choices[0].message.content).toBe("next");
  });

  it("refuses holdAfterChunks that is not a positive integer on a text reply", () => {
    expect(() => fake.script({ text: "x", holdAfterChunks: 0 })).toThrow(/holdAfterChunks/);
    expect(() => fake.script({ toolCalls: [{ name: "t", arguments: {} }], holdAfterChunks: 1 } as never)).toThrow(/holdAfterChunks/);
  });

  it("frees the port on close", async () => {
    const { port } = fake;
    await fake.close();
    const again = await startFakeOpenAI({ port });
    try {
      expect(again.port).toBe(port);
    } finally {
      await again.close();
    }
  });
});

describe("recording and models", () => {
  it("records each accepted request's body and headers, and counts all API requests", async () => {
    fake.script({ text: "one" }, { text: "two" });
    const tools = [{ type: "function", function: { name: "search_plan", description: "d", parameters: { type: "object", properties: {} } } }];
    await (await post({ model: "fake-gpt", messages: [{ role: "system", content: "be brief" }, user("first")], tools })).json();
    await (await post({ model: "fake-gpt-mini", messages: [user("second")], stream: true })).text();
    await (await post({ model: "fake-gpt", messages: [user("x")] }, { key: "bad" })).text();
    await (await fetch(`${fake.url}/models`, { headers: { authorization: `Bearer ${fake.apiKey}` } })).text();

    expect(fake.requests).toHaveLength(2);
    const [a, b] = fake.requests;
    expect(a.body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(a.body.tools?.map((t) => t.function.name)).toEqual(["search_plan"]);
    expect(a.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(typeof a.at).toBe("number");
    expect(b.body).toMatchObject({ model: "fake-gpt-mini", stream: true });
    expect(fake.requestCount).toBe(4);
    expect(fake.rejected).toHaveLength(1);
    expect(fake.pendingReplies).toBe(0);
  });

  it("lists the configured models and looks one up", async () => {
    const auth = { headers: { authorization: `Bearer ${fake.apiKey}` } };
    const list = await fetch(`${fake.url}/models`, auth);
    expect(list.status).toBe(200);
    const body = (await list.json()) as { object: string; data: { id: string; object: string }[] };
    expect(body.object).toBe("list");
    expect(body.data.map((m) => [m.id, m.object])).toEqual([
      ["fake-gpt", "model"],
      ["fake-gpt-mini", "model"],
    ]);
    expect(((await (await fetch(`${fake.url}/models/fake-gpt-mini`, auth)).json()) as { id: string }).id).toBe("fake-gpt-mini");
    expect((await fetch(`${fake.url}/models/nope`, auth)).status).toBe(404);
    expect((await fetch(`${fake.url}/models`)).status).toBe(401);
  });
});

describe("as a separate process", () => {
  it("starts from the CLI, is scripted over the control surface and stops on SIGTERM", async () => {
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", "test-support/fake-openai/cli.ts", "--api-key", "sk-cli", "--models", "m1,m2"], {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once("line", resolve);
        child.once("exit", (code) => reject(new Error(`fake OpenAI CLI exited with ${code}`)));
      });
      const started = JSON.parse(line) as { url: string; apiKey: string };
      expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(started.apiKey).toBe("sk-cli");

      const control = connectFakeOpenAI(started.url);
      expect(await control.script({ text: "from the script" })).toBe(1);
      const res = await fetch(`${started.url}/chat/completions`, {
        method: "POST",
        headers: { authorization: "Bearer sk-cli", "content-type": "application/json" },
        body: JSON.stringify({ model: "m2", messages: [user("hi")] }),
      });
      expect(((await res.json()) as Record<string, any>).choices[0].message.content).toBe("from the script");
      const [recorded] = await control.waitForRequests(1);
      expect(recorded.body.model).toBe("m2");
      expect((await control.requests()).count).toBe(1);
      await control.reset();
      expect((await control.requests()).requests).toEqual([]);

      const exited = once(child, "exit");
      child.kill("SIGTERM");
      const [code] = await exited;
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  });
});
