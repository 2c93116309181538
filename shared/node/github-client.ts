/**
 * The one way our code talks to GitHub: octokit (typed endpoints, pagination, GitHub's error shapes), given a fetch
 * that bounds every answer, as its `request.fetch`. Used by the app (main/github/) and the relay's admission alike.
 *
 * What must stay true:
 *  - every request gives up after timeoutMs, body included, and reads at most maxResponseBytes, counted while
 *    streaming (a declared or streamed body over the cap is refused, or, where a caller asked to cut, cut and marked);
 *  - the token is read at each call, so a refresh or sign-out takes effect on the next request, and a call with no
 *    token is refused before anything is sent (unless the client is anonymous, as the OAuth endpoints are);
 *  - every failure surfaces as a GitHubRequestError of one closed set of kinds, never as octokit's own error;
 *  - nothing retries or waits on its own: retrying belongs to callers that know whether it is safe.
 */
import { Octokit, RequestError } from "octokit";
import { GitHubRequestError, failureFromResponse } from "../github-errors.js";
import { GITHUB_REQUEST_TIMEOUT_MS, MAX_GITHUB_RESPONSE_BYTES } from "../limits.js";

/** Set on an answer the bounded fetch cut at the caller's truncateAt. */
export const TRUNCATED_HEADER = "x-chopin-truncated";

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

export interface BoundedFetchOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** Cut a successful body here (and mark it) instead of refusing it; never above maxResponseBytes. */
  truncateAt?: number;
}

/** Reads at most `limit` bytes; over the limit either refuses or cuts, and cancels the rest of the stream. */
async function readCapped(res: Response, limit: number, mode: "refuse" | "truncate"): Promise<{ bytes: Uint8Array<ArrayBuffer>; truncated: boolean }> {
  const declared = Number(res.headers.get("content-length"));
  if (mode === "refuse" && Number.isFinite(declared) && declared > limit) {
    await res.body?.cancel().catch(() => {});
    throw new GitHubRequestError("too-large", `GitHub's answer is larger than ${limit} bytes.`);
  }
  const reader = res.body?.getReader();
  if (!reader) return { bytes: new Uint8Array(0), truncated: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      if (mode === "refuse") throw new GitHubRequestError("too-large", `GitHub's answer is larger than ${limit} bytes.`);
      return { bytes: concat(chunks).subarray(0, limit), truncated: true };
    }
  }
  return { bytes: concat(chunks), truncated: false };
}

function concat(chunks: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * A fetch that answers with the whole (bounded) body already read, so octokit parses only what fit. An error status's
 * body is cut rather than refused: the status is what matters. Failures throw GitHubRequestError, which octokit
 * wraps and the client unwraps.
 */
export function boundedFetch(options: BoundedFetchOptions = {}): typeof fetch {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? GITHUB_REQUEST_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? MAX_GITHUB_RESPONSE_BYTES;
  return async (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    try {
      const res = await doFetch(input, { ...init, signal });
      const cut = !res.ok || options.truncateAt !== undefined;
      const { bytes, truncated } = await readCapped(res, Math.min(options.truncateAt ?? maxBytes, maxBytes), cut ? "truncate" : "refuse");
      const headers = new Headers(res.headers);
      headers.delete("content-length");
      headers.delete("content-encoding");
      if (truncated && res.ok) headers.set(TRUNCATED_HEADER, "true");
      // octokit hands back the text of JSON it cannot parse as if it were data; such an answer is GitHub's fault.
      if (res.ok && !truncated && isJson(headers) && !parses(bytes)) throw new GitHubRequestError("invalid-response", "GitHub's answer was not valid JSON.");
      const answer = new Response(NULL_BODY_STATUSES.has(res.status) ? null : bytes, { status: res.status, statusText: res.statusText, headers });
      // Pagination reads the answer's URL; a constructed Response has none of its own.
      Object.defineProperty(answer, "url", { value: res.url });
      return answer;
    } catch (e) {
      if (e instanceof GitHubRequestError) throw e;
      if (timeout.aborted) throw new GitHubRequestError("timeout", `GitHub did not answer within ${Math.round(timeoutMs / 1000)} s.`);
      throw new GitHubRequestError("unavailable", `GitHub could not be reached (${(e as Error).message}).`);
    }
  };
}

function isJson(headers: Headers): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test(headers.get("content-type") ?? "");
}

function parses(bytes: Uint8Array): boolean {
  try {
    JSON.parse(new TextDecoder().decode(bytes));
    return true;
  } catch {
    return false;
  }
}

/** octokit's failure as one of ours: our own thrown from the fetch, or the HTTP status GitHub answered. */
export function toGitHubRequestError(e: unknown, now = Date.now()): GitHubRequestError {
  if (e instanceof GitHubRequestError) return e;
  if (e instanceof RequestError) {
    if (e.cause instanceof GitHubRequestError) return e.cause;
    if (e.response) return failureFromResponse(e.status, new Headers(e.response.headers as Record<string, string>), now);
    return new GitHubRequestError("unavailable", `GitHub could not be reached (${e.message}).`);
  }
  if (e instanceof Error && e.name === "AbortError") return new GitHubRequestError("timeout", "GitHub did not answer in time.");
  return new GitHubRequestError("unavailable", `GitHub could not be reached (${e instanceof Error ? e.message : String(e)}).`);
}

export interface GitHubClientOptions extends Omit<BoundedFetchOptions, "truncateAt"> {
  /** The API base: https://api.github.com, a GitHub Enterprise /api/v3, or a fake on 127.0.0.1. */
  baseUrl: string;
  /** The current token, read at each call; null when signed out. Absent for an anonymous client. */
  token?: () => string | null;
  userAgent: string;
}

export function createGitHubClient(options: GitHubClientOptions): Octokit {
  const octokit = new Octokit({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    userAgent: options.userAgent,
    request: { fetch: boundedFetch(options) },
    retry: { enabled: false },
    throttle: { enabled: false },
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
  octokit.hook.wrap("request", async (request, requestOptions) => {
    const headers = requestOptions.headers as Record<string, string>;
    headers["x-github-api-version"] = "2022-11-28";
    if (options.token) {
      const token = options.token();
      if (!token) throw new GitHubRequestError("signed-out", "Nobody is signed in to GitHub.");
      headers.authorization = `Bearer ${token}`;
    }
    try {
      return await request(requestOptions);
    } catch (e) {
      throw toGitHubRequestError(e);
    }
  });
  return octokit;
}

export type { Octokit };
