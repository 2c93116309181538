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

export function paginate<T>(items: T[], req: FakeRequest, fallback = 30): T[] {
  const { perPage: n, page } = perPage(req, fallback);
  return items.slice((page - 1) * n, page * n);
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
