/**
 * The fake's control surface over HTTP (`/_fake/*`, beside `/v1`, no API key), so a test driving the fake as a
 * separate process (the CLI) can script replies and read what was asked, the same state an in-process test drives
 * directly. Replies here are plain data only; reply functions exist only in-process.
 */
import type { FakeOpenAIState } from "./state.js";
import type { RecordedRequest, RejectedRequest, ReplyContent } from "./types.js";

export const CONTROL_PREFIX = "/_fake/";

type Body = Record<string, unknown>;

const actions: Record<string, (state: FakeOpenAIState, b: Body) => unknown> = {
  script: (s, b) => {
    if (!Array.isArray(b.replies)) throw new Error("script needs {replies: [...]}");
    s.script(b.replies as ReplyContent[]);
    return { pending: s.pendingReplies };
  },
  default: (s, b) => s.setDefaultReply(b.reply as ReplyContent),
  requests: (s) => ({ count: s.requestCount, pending: s.pendingReplies, requests: s.requests, rejected: s.rejected }),
  "wait-requests": async (s, b) => ({ requests: await s.waitForRequests(Number(b.count), b.timeoutMs === undefined ? undefined : Number(b.timeoutMs)) }),
  release: (s) => ({ released: s.release() }),
  reset: (s) => s.reset(),
};

/** Runs one control action; null when the name is unknown. Throws (for a 400) on bad arguments. */
export async function runControl(state: FakeOpenAIState, name: string, body: Body): Promise<{ result: unknown } | null> {
  const action = actions[name];
  if (!action) return null;
  return { result: (await action(state, body)) ?? null };
}

/** A typed client of the control surface; `url` is the fake's base URL as printed by the CLI (ending in /v1). */
export function connectFakeOpenAI(url: string) {
  const origin = new URL(url).origin;
  const call = async (name: string, body: Body = {}) => {
    const res = await fetch(`${origin}${CONTROL_PREFIX}${name}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`fake OpenAI control ${name} failed: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { result: unknown }).result;
  };
  return {
    script: async (...replies: ReplyContent[]) => ((await call("script", { replies })) as { pending: number }).pending,
    setDefaultReply: async (reply: ReplyContent) => void (await call("default", { reply })),
    requests: async () =>
      (await call("requests")) as { count: number; pending: number; requests: RecordedRequest[]; rejected: RejectedRequest[] },
    waitForRequests: async (count: number, timeoutMs?: number) =>
      ((await call("wait-requests", { count, timeoutMs })) as { requests: RecordedRequest[] }).requests,
    release: async () => ((await call("release")) as { released: number }).released,
    reset: async () => void (await call("reset")),
  };
}
