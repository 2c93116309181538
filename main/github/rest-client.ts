/**
 * The one way main/ talks to GitHub's REST API: a configurable base URL (github.com, GitHub Enterprise, or the fake on
 * 127.0.0.1), a token read at call time (so a refresh or sign-out takes effect on the next call), a hard timeout and
 * a byte cap on every response body. fetch rather than Octokit: the cap must apply while streaming, and retries
 * belong to callers that know whether retrying is safe.
 */
import { GITHUB_REQUEST_TIMEOUT_MS } from "../../shared/limits.js";
import { MAX_GITHUB_RESPONSE_BYTES } from "../util/limits.js";
import { GitHubRequestError, failureFromResponse } from "./github-errors.js";

export type Query = Record<string, string | number | boolean | undefined>;

export interface GitHubRestOptions {
  apiBaseUrl: string;
  /** The current user access token, or null when signed out. */
  token: () => string | null;
  fetch?: typeof fetch;
  timeoutMs?: number;
  maxResponseBytes?: number;
}

export interface GitHubRest {
  readonly apiBaseUrl: string;
  getJson<T = unknown>(path: string, options?: { query?: Query; accept?: string }): Promise<T>;
  /** Text body; with truncateAt the body is cut there (truncated: true) instead of refused. */
  getText(path: string, options?: { query?: Query; accept?: string; truncateAt?: number }): Promise<{ text: string; truncated: boolean }>;
}

export function buildUrl(base: string, path: string, query?: Query): string {
  const url = new URL(base.replace(/\/+$/, "") + path);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  return url.toString();
}

/** Reads at most `limit` bytes; over the limit either refuses or cuts, and cancels the rest of the stream. */
async function readCapped(res: Response, limit: number, mode: "refuse" | "truncate"): Promise<{ bytes: Buffer; truncated: boolean }> {
  const declared = Number(res.headers.get("content-length"));
  if (mode === "refuse" && Number.isFinite(declared) && declared > limit) {
    await res.body?.cancel().catch(() => {});
    throw new GitHubRequestError("too-large", `GitHub's answer is larger than ${limit} bytes.`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  if (!reader) return { bytes: Buffer.alloc(0), truncated: false };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    chunks.push(Buffer.from(value));
    if (size > limit) {
      await reader.cancel().catch(() => {});
      if (mode === "refuse") throw new GitHubRequestError("too-large", `GitHub's answer is larger than ${limit} bytes.`);
      return { bytes: Buffer.concat(chunks).subarray(0, limit), truncated: true };
    }
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}

export function createGitHubRest(options: GitHubRestOptions): GitHubRest {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? GITHUB_REQUEST_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? MAX_GITHUB_RESPONSE_BYTES;

  async function request<R>(path: string, query: Query | undefined, accept: string, read: (res: Response) => Promise<R>): Promise<R> {
    const token = options.token();
    if (!token) throw new GitHubRequestError("signed-out", "Nobody is signed in to GitHub.");
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const res = await doFetch(buildUrl(options.apiBaseUrl, path, query), {
        headers: { accept, authorization: `Bearer ${token}`, "x-github-api-version": "2022-11-28", "user-agent": "chopin-desktop" },
        signal,
        redirect: "follow",
      });
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        throw failureFromResponse(res.status, res.headers, Date.now());
      }
      return await read(res);
    } catch (e) {
      if (e instanceof GitHubRequestError) throw e;
      if (signal.aborted) throw new GitHubRequestError("timeout", `GitHub did not answer within ${Math.round(timeoutMs / 1000)} s.`);
      throw new GitHubRequestError("unavailable", `GitHub could not be reached (${(e as Error).message}).`);
    }
  }

  return {
    apiBaseUrl: options.apiBaseUrl,
    getJson<T>(path: string, opts: { query?: Query; accept?: string } = {}) {
      return request(path, opts.query, opts.accept ?? "application/vnd.github+json", async (res) => {
        const { bytes } = await readCapped(res, maxBytes, "refuse");
        try {
          return JSON.parse(bytes.toString("utf8")) as T;
        } catch {
          throw new GitHubRequestError("invalid-response", "GitHub's answer was not valid JSON.");
        }
      });
    },
    getText(path, opts = {}) {
      const cap = Math.min(opts.truncateAt ?? maxBytes, maxBytes);
      return request(path, opts.query, opts.accept ?? "text/plain", async (res) => {
        const { bytes, truncated } = await readCapped(res, cap, opts.truncateAt !== undefined ? "truncate" : "refuse");
        // A cut may split a multi-byte character; the decoder replaces the partial tail rather than failing.
        return { text: new TextDecoder("utf-8").decode(bytes), truncated };
      });
    },
  };
}
