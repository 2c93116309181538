import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GITHUB_REQUEST_TIMEOUT_MS, MAX_GITHUB_RESPONSE_BYTES } from "../../shared/limits.js";
import { startFakeGitHub, type FakeGitHub } from "../../test-support/fake-github/server.js";
import { GitHubRequestError, resetWords } from "../../shared/github-errors.js";
import { createGitHubRest, type GitHubRest } from "./rest-client.js";

let fake: FakeGitHub;
beforeAll(async () => {
  fake = await startFakeGitHub();
});
afterAll(() => fake.close());

const rest = (opts: { token?: string | null; timeoutMs?: number; maxResponseBytes?: number } = {}) =>
  createGitHubRest({ apiBaseUrl: fake.url, token: () => (opts.token === undefined ? "ghu_alice" : opts.token), timeoutMs: opts.timeoutMs, maxResponseBytes: opts.maxResponseBytes });

/** GET through octokit's generic request, as a typed endpoint would. */
const get = async (client: GitHubRest, path: string, query: Record<string, unknown> = {}) => (await client.octokit.request(`GET ${path}`, query)).data;

async function failureOf(p: Promise<unknown>): Promise<GitHubRequestError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof GitHubRequestError) return e;
    throw e;
  }
  throw new Error("expected a GitHubRequestError");
}

describe("GitHub REST client against the fake", () => {
  it("reads JSON with the bearer token", async () => {
    expect(await get(rest(), "/user")).toMatchObject({ login: "alice" });
  });

  it("refuses to call GitHub when signed out", async () => {
    expect((await failureOf(get(rest({ token: null }), "/user"))).kind).toBe("signed-out");
  });

  it("maps 500, 401 and 404 to typed failures", async () => {
    fake.inject({ kind: "status", status: 500 }, { pathPrefix: "/user", times: 1 });
    expect((await failureOf(get(rest(), "/user"))).kind).toBe("unavailable");
    fake.inject({ kind: "unauthorized" }, { pathPrefix: "/user", times: 1 });
    expect((await failureOf(get(rest(), "/user"))).kind).toBe("unauthorized");
    expect((await failureOf(get(rest(), "/repos/nobody/nothing"))).kind).toBe("not-found");
    expect((await failureOf(get(rest({ token: "ghu_unknown" }), "/user"))).kind).toBe("unauthorized");
  });

  it("reads rate limits with their reset time (403 and 429)", async () => {
    const reset = Math.floor(Date.now() / 1000) + 120;
    fake.inject({ kind: "rate-limit", resetEpochSeconds: reset }, { pathPrefix: "/user", times: 1 });
    const e = await failureOf(get(rest(), "/user"));
    expect(e.kind).toBe("rate-limited");
    expect(e.resetAt).toBe(reset * 1000);
    // Said in the person's own time, not as a timestamp.
    expect(e.message).toMatch(/resets in about [23] minutes \(at \d\d:\d\d\)\.$/);
    fake.inject({ kind: "rate-limit", status: 429, resetEpochSeconds: reset }, { pathPrefix: "/user", times: 1 });
    expect((await failureOf(get(rest(), "/user"))).kind).toBe("rate-limited");
  });

  it("gives up on a slow answer after the timeout (15 s by default; shortened here)", async () => {
    const remove = fake.inject({ kind: "slow", delayMs: 2000 }, { pathPrefix: "/user", times: 1 });
    const e = await failureOf(get(rest({ timeoutMs: 100 }), "/user"));
    remove();
    expect(e.kind).toBe("timeout");
    expect(GITHUB_REQUEST_TIMEOUT_MS).toBe(15_000);
  });

  it("accepts a response exactly at the byte cap and refuses one byte over", async () => {
    const size = Buffer.byteLength(JSON.stringify(await get(rest(), "/user")));
    expect(await get(rest({ maxResponseBytes: size }), "/user")).toMatchObject({ login: "alice" });
    expect((await failureOf(get(rest({ maxResponseBytes: size - 1 }), "/user"))).kind).toBe("too-large");
  });

  it("by default accepts a MAX_GITHUB_RESPONSE_BYTES body and refuses one byte more, declared or streamed", async () => {
    // A JSON string of exactly `size` bytes; ?chunked=1 omits content-length so only the streaming count can refuse it.
    const big = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      const body = Buffer.alloc(Number(url.searchParams.get("size")), "a");
      body[0] = body[body.length - 1] = 0x22;
      if (url.searchParams.get("chunked")) {
        res.writeHead(200, { "content-type": "application/json" });
        for (let at = 0; at < body.length; at += 64 * 1024) res.write(body.subarray(at, at + 64 * 1024));
        res.end();
      } else res.writeHead(200, { "content-type": "application/json", "content-length": body.length }).end(body);
    });
    await new Promise<void>((resolve) => big.listen(0, "127.0.0.1", resolve));
    try {
      const client = createGitHubRest({ apiBaseUrl: `http://127.0.0.1:${(big.address() as AddressInfo).port}`, token: () => "t" });
      for (const chunked of ["", "1"]) {
        const query = { chunked };
        const atCap = await get(client, "/big", { ...query, size: MAX_GITHUB_RESPONSE_BYTES });
        expect(atCap.length).toBe(MAX_GITHUB_RESPONSE_BYTES - 2);
        const over = await failureOf(get(client, "/big", { ...query, size: MAX_GITHUB_RESPONSE_BYTES + 1 }));
        expect(over.kind).toBe("too-large");
      }
    } finally {
      big.closeAllConnections();
      await new Promise((resolve) => big.close(resolve));
    }
  });

  it("cuts text at truncateAt and says so", async () => {
    const path = "/repos/octo-org/planets/pulls/1";
    const diff = (truncateAt: number) => rest().text(`GET ${path}`, {}, { accept: "application/vnd.github.diff", truncateAt });
    const full = await diff(MAX_GITHUB_RESPONSE_BYTES);
    expect(full.truncated).toBe(false);
    expect(full.text).toMatch(/^diff --git/);
    const cut = await diff(10);
    expect(cut).toEqual({ text: full.text.slice(0, 10), truncated: true });
    const exact = await diff(Buffer.byteLength(full.text));
    expect(exact).toEqual({ text: full.text, truncated: false });
  });

  it("maps an unreachable base URL to 'unavailable'", async () => {
    const dead = createGitHubRest({ apiBaseUrl: "http://127.0.0.1:1", token: () => "x" });
    expect((await failureOf(get(dead, "/user"))).kind).toBe("unavailable");
  });
});

describe("resetWords", () => {
  it("rounds up to whole minutes, at least one, and names the local clock time", () => {
    const now = new Date(2026, 11, 1, 7, 0, 0).getTime();
    expect(resetWords(now + 23 * 60_000 - 1, now)).toBe("in about 23 minutes (at 07:22)");
    expect(resetWords(now + 5_000, now)).toBe("in about 1 minute (at 07:00)");
    expect(resetWords(now - 5_000, now)).toBe("in about 1 minute (at 06:59)");
  });
});

describe("what octokit is given back", () => {
  it("refuses a JSON answer that does not parse, instead of handing its text on as data", async () => {
    const bad = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{not json"));
    await new Promise<void>((resolve) => bad.listen(0, "127.0.0.1", resolve));
    try {
      const client = createGitHubRest({ apiBaseUrl: `http://127.0.0.1:${(bad.address() as AddressInfo).port}`, token: () => "t" });
      expect((await failureOf(get(client, "/user"))).kind).toBe("invalid-response");
    } finally {
      bad.closeAllConnections();
      await new Promise((resolve) => bad.close(resolve));
    }
  });

  it("reads the token at each call, so a sign-out or refresh holds from the next request on", async () => {
    let token: string | null = "ghu_alice";
    const client = createGitHubRest({ apiBaseUrl: fake.url, token: () => token });
    expect(await get(client, "/user")).toMatchObject({ login: "alice" });
    token = "ghu_bob";
    expect(await get(client, "/user")).toMatchObject({ login: "bob" });
    token = null;
    expect((await failureOf(get(client, "/user"))).kind).toBe("signed-out");
  });
});
