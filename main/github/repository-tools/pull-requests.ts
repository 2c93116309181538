/**
 * list_pull_requests and pull_request_read: read-only views of the bound repository's pull requests, shaped small for
 * a model. Pull requests are not on the default branch, so the session pin does not apply to them; owner and
 * repository still come only from the binding. Bounds: list limit PULL_REQUESTS_DEFAULT_LISTED..MAX_PULL_REQUESTS_LISTED,
 * list methods at most MAX_PULL_REQUEST_ITEMS items, the diff cut at MAX_PULL_REQUEST_DIFF_BYTES, bodies clipped.
 */
import { z } from "zod";
import { MAX_GITHUB_TEXT_FIELD_CHARS, MAX_PULL_REQUEST_DIFF_BYTES, MAX_PULL_REQUEST_ITEMS, MAX_PULL_REQUESTS_LISTED, PULL_REQUESTS_DEFAULT_LISTED } from "../../util/limits.js";
import { repoPath } from "../repository-binding.js";
import { clip, type ToolContext, type ToolResult, runRepositoryTool } from "./tool-result.js";
import { defineTool } from "../../util/tool-registry.js";

// GitHub's JSON, reshaped field by field into small typed answers below.
type Json = Record<string, any>;

export const listPullRequestsInput = z.strictObject({
  state: z.enum(["open", "closed", "all"]).optional(),
  limit: z.number().int().min(1).max(MAX_PULL_REQUESTS_LISTED).optional(),
});

export const PULL_REQUEST_READ_METHODS = [
  "get",
  "get_diff",
  "get_status",
  "get_files",
  "get_commits",
  "get_review_comments",
  "get_reviews",
  "get_comments",
  "get_check_runs",
] as const;
export type PullRequestReadMethod = (typeof PULL_REQUEST_READ_METHODS)[number];

export const pullRequestReadInput = z.strictObject({
  method: z.enum(PULL_REQUEST_READ_METHODS),
  pull_number: z.number().int().min(1).max(2 ** 31 - 1),
});

const text = (s: unknown) => clip(typeof s === "string" ? s : "", MAX_GITHUB_TEXT_FIELD_CHARS);
const login = (u: unknown) => ((u as Json | null)?.login as string | undefined) ?? "unknown";

function summary(p: Json) {
  return {
    number: p.number as number,
    title: text(p.title),
    state: p.state as string,
    draft: p.draft === true,
    merged: p.merged_at != null,
    author: login(p.user),
    headRef: p.head?.ref as string,
    baseRef: p.base?.ref as string,
    createdAt: p.created_at as string,
    updatedAt: p.updated_at as string,
  };
}

export const listPullRequestsTool = defineTool({
  name: "list_pull_requests",
  description: "List the bound repository's pull requests (open, closed or all), newest first, bounded.",
  input: listPullRequestsInput,
  errors: ["timeout", "rate-limited", "unauthorized", "forbidden", "github-unavailable"],
  async handler({ state, limit }, ctx: ToolContext): Promise<{ pullRequests: ReturnType<typeof summary>[] }> {
      const n = limit ?? PULL_REQUESTS_DEFAULT_LISTED;
      const body = await ctx.rest.getJson<Json[]>(repoPath(ctx.binding, "/pulls"), {
        query: { state: state ?? "open", per_page: n, sort: "updated", direction: "desc" },
      });
      return { pullRequests: body.slice(0, n).map(summary) };
  },
});

/** The tool run on raw input, in the one tool convention. */
export function listPullRequests(ctx: ToolContext, input: unknown): Promise<ToolResult<{ pullRequests: ReturnType<typeof summary>[] }>> {
  return runRepositoryTool(listPullRequestsTool, ctx, input);
}

export const pullRequestReadTool = defineTool({
  name: "pull_request_read",
  description: "Read one pull request of the bound repository: its details, diff (cut at a bound), files, commits, reviews or status checks.",
  input: pullRequestReadInput,
  errors: ["not-found", "too-large", "timeout", "rate-limited", "unauthorized", "forbidden", "github-unavailable"],
  async handler({ method, pull_number }, ctx: ToolContext): Promise<unknown> {
      const pr = (suffix = "") => repoPath(ctx.binding, `/pulls/${pull_number}${suffix}`);
      const list = (path: string) => ctx.rest.getJson<Json[]>(path, { query: { per_page: MAX_PULL_REQUEST_ITEMS } });
      const headSha = async () => ((await ctx.rest.getJson<Json>(pr())).head?.sha as string);
      switch (method) {
        case "get": {
          const p = await ctx.rest.getJson<Json>(pr());
          return {
            ...summary(p),
            body: text(p.body),
            merged: p.merged === true,
            headSha: p.head?.sha,
            baseSha: p.base?.sha,
            additions: p.additions,
            deletions: p.deletions,
            changedFiles: p.changed_files,
            commits: p.commits,
          };
        }
        case "get_diff": {
          const { text: diff, truncated } = await ctx.rest.getText(pr(), { accept: "application/vnd.github.diff", truncateAt: MAX_PULL_REQUEST_DIFF_BYTES });
          return { diff, truncated };
        }
        case "get_status": {
          const sha = await headSha();
          const s = await ctx.rest.getJson<Json>(repoPath(ctx.binding, `/commits/${encodeURIComponent(sha)}/status`));
          return {
            sha,
            state: s.state,
            statuses: ((s.statuses as Json[]) ?? []).slice(0, MAX_PULL_REQUEST_ITEMS).map((x) => ({ context: x.context, state: x.state, description: text(x.description) })),
          };
        }
        case "get_check_runs": {
          const sha = await headSha();
          const r = await ctx.rest.getJson<Json>(repoPath(ctx.binding, `/commits/${encodeURIComponent(sha)}/check-runs`), { query: { per_page: MAX_PULL_REQUEST_ITEMS } });
          return { sha, checkRuns: ((r.check_runs as Json[]) ?? []).map((c) => ({ name: c.name, status: c.status, conclusion: c.conclusion ?? null })) };
        }
        case "get_files":
          return {
            files: (await list(pr("/files"))).map((f) => ({ filename: f.filename, status: f.status, additions: f.additions, deletions: f.deletions, patch: text(f.patch) })),
          };
        case "get_commits":
          return { commits: (await list(pr("/commits"))).map((c) => ({ sha: c.sha, message: text(c.commit?.message), author: c.author?.login ?? c.commit?.author?.name ?? "unknown", date: c.commit?.author?.date })) };
        case "get_review_comments":
          return { comments: (await list(pr("/comments"))).map((c) => ({ id: c.id, author: login(c.user), path: c.path, line: c.line ?? null, body: text(c.body), createdAt: c.created_at })) };
        case "get_reviews":
          return { reviews: (await list(pr("/reviews"))).map((r) => ({ id: r.id, author: login(r.user), state: r.state, body: text(r.body), submittedAt: r.submitted_at })) };
        case "get_comments":
          return { comments: (await list(repoPath(ctx.binding, `/issues/${pull_number}/comments`))).map((c) => ({ id: c.id, author: login(c.user), body: text(c.body), createdAt: c.created_at })) };
      }
  },
});

/** The tool run on raw input, in the one tool convention. */
export function pullRequestRead(ctx: ToolContext, input: unknown): Promise<ToolResult<unknown>> {
  return runRepositoryTool(pullRequestReadTool, ctx, input);
}
