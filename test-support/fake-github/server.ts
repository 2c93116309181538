/**
 * A fake GitHub on 127.0.0.1 for tests: REST endpoints, the OAuth device flow (web and API base are the same server),
 * deterministic fixtures and failure injection (status codes, 401, rate limits with reset headers, slow responses).
 * Plain Node http, no test-framework imports, so vitest, Playwright and the CLI all start it the same way.
 * What must stay true: shapes follow GitHub's documented REST responses; anything unknown is a 404 like GitHub's.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { CONTROL_PREFIX, runControl } from "./control.js";
import { defaultFixtures, type FakeFixtures } from "./fixtures.js";
import { notFound, type FakeRequest, type FakeResponse, type Route } from "./http-types.js";
import { authRoutes } from "./routes-auth.js";
import { pullRoutes } from "./routes-pulls.js";
import { repoRoutes } from "./routes-repos.js";
import { FakeGitHubState, type FakeFailure, type InjectOptions } from "./state.js";

export interface FakeGitHub {
  /** Base URL for both the API and the web (OAuth) endpoints, e.g. http://127.0.0.1:PORT */
  url: string;
  port: number;
  state: FakeGitHubState;
  /** Injects a failure; returns a function that removes it. */
  inject(failure: FakeFailure, options?: InjectOptions): () => void;
  close(): Promise<void>;
}

const ROUTES: Route[] = [...authRoutes, ...repoRoutes, ...pullRoutes];
/** Request bodies to the fake are tiny; anything bigger is a test bug. */
const MAX_BODY_BYTES = 64 * 1024;

async function readBody(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error("body too large");
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks).toString("utf8");
  if (!raw) return {};
  if (String(req.headers["content-type"] ?? "").includes("json")) {
    const parsed = JSON.parse(raw) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
  }
  return Object.fromEntries(new URLSearchParams(raw));
}

function failureResponse(f: Exclude<FakeFailure, { kind: "slow" }>): FakeResponse {
  if (f.kind === "unauthorized") return { status: 401, json: { message: "Bad credentials" } };
  if (f.kind === "rate-limit") {
    const reset = f.resetEpochSeconds ?? Math.floor(Date.now() / 1000) + 60;
    return {
      status: f.status ?? 403,
      json: { message: "API rate limit exceeded for user." },
      headers: { "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset), "x-ratelimit-used": "5000" },
    };
  }
  return { status: f.status, json: { message: f.message ?? "Server Error" } };
}

function send(res: ServerResponse, r: FakeResponse): void {
  if (res.destroyed) return;
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  let body = "";
  if (r.text !== undefined) body = r.text;
  else if (r.json !== undefined) {
    body = JSON.stringify(r.json);
    headers["content-type"] ??= "application/json; charset=utf-8";
  }
  res.writeHead(r.status, headers);
  res.end(body);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startFakeGitHub(options: { fixtures?: FakeFixtures; port?: number } = {}): Promise<FakeGitHub> {
  const state = new FakeGitHubState(options.fixtures ?? defaultFixtures());
  const sockets = new Set<Socket>();
  let baseUrl = "";

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", baseUrl);
    const method = req.method ?? "GET";
    let body: Record<string, string>;
    try {
      body = await readBody(req);
    } catch {
      return send(res, { status: 400, json: { message: "Problems parsing JSON" } });
    }
    if (url.pathname.startsWith(CONTROL_PREFIX)) {
      try {
        const raw = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, tryJson(v)]));
        const out = runControl(state, url.pathname.slice(CONTROL_PREFIX.length), raw, url.searchParams);
        return send(res, out ? { status: 200, json: out } : notFound());
      } catch (e) {
        return send(res, { status: 400, json: { message: (e as Error).message } });
      }
    }
    const authorization = req.headers.authorization ?? null;
    state.requests.push({ method, path: url.pathname, query: url.search, authorization });

    let failure = state.takeFailure(url.pathname);
    while (failure?.kind === "slow") {
      await sleep(failure.delayMs);
      failure = state.takeFailure(url.pathname);
    }
    if (failure) return send(res, failureResponse(failure));

    for (const route of ROUTES) {
      if (route.method !== method) continue;
      const m = url.pathname.match(route.pattern);
      if (!m) continue;
      let login: string | null = null;
      let token: string | null = null;
      if (route.auth) {
        token = /^(?:token|bearer)\s+(.+)$/i.exec(authorization ?? "")?.[1] ?? "";
        login = state.loginForToken(token);
        if (!login) return send(res, { status: 401, json: { message: "Bad credentials" } });
      }
      const fr: FakeRequest = { method, path: url.pathname, query: url.searchParams, headers: req.headers, body, login, token, baseUrl };
      return send(res, route.handle(fr, m, state));
    }
    return send(res, notFound());
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e) => send(res, { status: 500, json: { message: `fake GitHub bug: ${(e as Error).message}` } }));
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    url: baseUrl,
    port,
    state,
    inject(failure, injectOptions) {
      const entry = state.inject(failure, injectOptions);
      return () => state.removeFailure(entry.id);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function tryJson(v: string): unknown {
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}
