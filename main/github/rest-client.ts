/**
 * The app's GitHub client: octokit over the bounded fetch (shared/node/github-client.ts) against a configurable base
 * URL (github.com, GitHub Enterprise, or the fake on 127.0.0.1), with the token read at call time. Callers use
 * octokit's typed endpoints; a failure is always a GitHubRequestError.
 */
import { boundedFetch, createGitHubClient, TRUNCATED_HEADER, type Octokit } from "../../shared/node/github-client.js";

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
  readonly octokit: Octokit;
  /**
   * A text answer (a pull request's diff) read with `accept`, cut at truncateAt bytes (truncated: true) instead of
   * refused; a cut may split a character, whose partial tail reads as U+FFFD rather than failing.
   */
  text(route: string, parameters: Record<string, unknown>, options: { accept: string; truncateAt: number }): Promise<{ text: string; truncated: boolean }>;
}

export function createGitHubRest(options: GitHubRestOptions): GitHubRest {
  const octokit = createGitHubClient({ ...options, baseUrl: options.apiBaseUrl, userAgent: "chopin-desktop" });
  return {
    apiBaseUrl: options.apiBaseUrl,
    octokit,
    async text(route, parameters, { accept, truncateAt }) {
      const res = await octokit.request(route, {
        ...parameters,
        headers: { accept },
        request: { fetch: boundedFetch({ ...options, truncateAt }) },
      });
      const data: unknown = res.data;
      const text = typeof data === "string" ? data : data instanceof ArrayBuffer ? new TextDecoder("utf-8").decode(data) : "";
      return { text, truncated: res.headers[TRUNCATED_HEADER] === "true" };
    },
  };
}

/** The first `max` items of a paginated list, asking for no page after the one that reaches `max`. */
export async function firstItems<T>(pages: AsyncIterable<{ data: T[] }>, max: number): Promise<T[]> {
  const items: T[] = [];
  for await (const { data } of pages) {
    items.push(...data);
    if (items.length >= max) break;
  }
  return items.slice(0, max);
}
