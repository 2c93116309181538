/** The fake's tiny routing vocabulary, shared by its route files so each stays small and declarative. */
import type { IncomingHttpHeaders } from "node:http";
import type { FakeRepo } from "./fixtures.js";
import type { FakeGitHubState } from "./state.js";

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Form or JSON body flattened to strings. */
  body: Record<string, string>;
  /** The login the bearer token stands for (null for unauthenticated routes). */
  login: string | null;
  /** The bearer token itself (null for unauthenticated routes). */
  token: string | null;
  baseUrl: string;
}

export interface FakeResponse {
  status: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

export interface Route {
  method: "GET" | "POST";
  pattern: RegExp;
  /** Whether a valid bearer token is required (GitHub's web OAuth endpoints take none). */
  auth: boolean;
  handle(req: FakeRequest, match: RegExpMatchArray, state: FakeGitHubState): FakeResponse;
}

export const notFound = (): FakeResponse => ({
  status: 404,
  json: { message: "Not Found", documentation_url: "https://docs.github.com/rest" },
});

export const ok = (json: unknown, headers?: Record<string, string>): FakeResponse => ({ status: 200, json, headers });

export function perPage(req: FakeRequest, fallback = 30): { perPage: number; page: number } {
  const perPage = Math.min(100, Math.max(1, Number(req.query.get("per_page") ?? fallback) || fallback));
  const page = Math.max(1, Number(req.query.get("page") ?? 1) || 1);
  return { perPage, page };
}

/**
 * One page of a list as GitHub answers it: `body` shapes the page's items, and a Link header names the first, previous,
 * next and last pages (clients such as octokit's paginate follow rel="next" and stop when it is absent).
 */
export function paged<T>(items: T[], req: FakeRequest, body: (page: T[]) => unknown, fallback = 30): FakeResponse {
  const { perPage: n, page } = perPage(req, fallback);
  const last = Math.max(1, Math.ceil(items.length / n));
  const at = (p: number) => {
    const query = new URLSearchParams(req.query);
    query.set("per_page", String(n));
    query.set("page", String(p));
    return `<${req.baseUrl}${req.path}?${query}>`;
  };
  const links = [
    ...(page < last ? [`${at(page + 1)}; rel="next"`, `${at(last)}; rel="last"`] : []),
    ...(page > 1 ? [`${at(1)}; rel="first"`, `${at(page - 1)}; rel="prev"`] : []),
  ];
  return ok(body(items.slice((page - 1) * n, page * n)), links.length > 0 ? { link: links.join(", ") } : undefined);
}

export function repoJson(repo: FakeRepo, baseUrl: string) {
  return {
    id: repo.id,
    node_id: repo.nodeId,
    name: repo.name,
    full_name: `${repo.owner}/${repo.name}`,
    owner: { login: repo.owner, type: repo.ownerType },
    private: repo.private,
    default_branch: repo.defaultBranch,
    html_url: `${baseUrl}/${repo.owner}/${repo.name}`,
    url: `${baseUrl}/repos/${repo.owner}/${repo.name}`,
  };
}

export const userJson = (login: string, id = 0) => ({ login, id, type: "User" });
