/**
 * list_pull_requests and pull_request_read: read-only views of the bound repository's pull requests, shaped small for
 * a model. Pull requests are not on the default branch, so the session pin does not apply to them; owner and
 * repository still come only from the binding. Bounds: list limit PULL_REQUESTS_DEFAULT_LISTED..MAX_PULL_REQUESTS_LISTED,
 * list methods at most MAX_PULL_REQUEST_ITEMS items, the diff cut at MAX_PULL_REQUEST_DIFF_BYTES, bodies clipped.
 */
import { z } from "zod";
import { MAX_GITHUB_TEXT_FIELD_CHARS, MAX_PULL_REQUEST_DIFF_BYTES, MAX_PULL_REQUEST_ITEMS, MAX_PULL_REQUESTS_LISTED, PULL_REQUESTS_DEFAULT_LISTED } from "../../util/limits.js";
import type { Octokit } from "../../../shared/node/github-client.js";
import { clip, repoOf, type ToolContext, type ToolResult, runRepositoryTool } from "./tool-result.js";
import { defineTool } from "../../util/tool-registry.js";

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

const text = (s: string | null | undefined) => clip(s, MAX_GITHUB_TEXT_FIELD_CHARS);
const login = (u: { login: string } | null | undefined) => u?.login ?? "unknown";

/** The fields both a listed and a fetched pull request carry. */
type PullRequestFields = Pick<
  Awaited<ReturnType<Octokit["rest"]["pulls"]["list"]>>["data"][number],
  "number" | "title" | "state" | "draft" | "merged_at" | "user" | "head" | "base" | "created_at" | "updated_at"
>;

function summary(p: PullRequestFields) {
  return {
    number: p.number,
    title: text(p.title),
    state: p.state,
    draft: p.draft === true,
    merged: p.merged_at != null,
    author: login(p.user),
    headRef: p.head.ref,
    baseRef: p.base.ref,
    createdAt: p.created_at,
    updatedAt: p.updated_at,
  };
}

export const listPullRequestsTool = defineTool({
  name: "list_pull_requests",
  description: "List the bound repository's pull requests (open, closed or all), newest first, bounded.",
  input: listPullRequestsInput,
  errors: ["timeout", "rate-limited", "unauthorized", "forbidden", "github-unavailable"],
  async handler({ state, limit }, ctx: ToolContext): Promise<{ pullRequests: ReturnType<typeof summary>[] }> {
    const n = limit ?? PULL_REQUESTS_DEFAULT_LISTED;
    const { data } = await ctx.rest.octokit.rest.pulls.list({ ...repoOf(ctx), state: state ?? "open", per_page: n, sort: "updated", direction: "desc" });
    return { pullRequests: data.slice(0, n).map(summary) };
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
    const { pulls, repos, checks, issues } = ctx.rest.octokit.rest;
    const pr = { ...repoOf(ctx), pull_number };
    const page = { per_page: MAX_PULL_REQUEST_ITEMS };
    const headSha = async () => (await pulls.get(pr)).data.head.sha;
    switch (method) {
      case "get": {
        const { data: p } = await pulls.get(pr);
        return {
          ...summary(p),
          body: text(p.body),
          merged: p.merged === true,
          headSha: p.head.sha,
          baseSha: p.base.sha,
          additions: p.additions,
          deletions: p.deletions,
          changedFiles: p.changed_files,
          commits: p.commits,
        };
      }
      case "get_diff": {
        const { text: diff, truncated } = await ctx.rest.text("GET /repos/{owner}/{repo}/pulls/{pull_number}", pr, {
          accept: "application/vnd.github.diff",
          truncateAt: MAX_PULL_REQUEST_DIFF_BYTES,
        });
        return { diff, truncated };
      }
      case "get_status": {
        const sha = await headSha();
        const { data: s } = await repos.getCombinedStatusForRef({ ...repoOf(ctx), ref: sha });
        return {
          sha,
          state: s.state,
          statuses: s.statuses.slice(0, MAX_PULL_REQUEST_ITEMS).map((x) => ({ context: x.context, state: x.state, description: text(x.description) })),
        };
      }
      case "get_check_runs": {
        const sha = await headSha();
        const { data: r } = await checks.listForRef({ ...repoOf(ctx), ref: sha, ...page });
        return { sha, checkRuns: r.check_runs.map((c) => ({ name: c.name, status: c.status, conclusion: c.conclusion ?? null })) };
      }
      case "get_files": {
        const { data } = await pulls.listFiles({ ...pr, ...page });
        return { files: data.map((f) => ({ filename: f.filename, status: f.status, additions: f.additions, deletions: f.deletions, patch: text(f.patch) })) };
      }
      case "get_commits": {
        const { data } = await pulls.listCommits({ ...pr, ...page });
        return {
          commits: data.map((c) => ({ sha: c.sha, message: text(c.commit.message), author: c.author?.login ?? c.commit.author?.name ?? "unknown", date: c.commit.author?.date })),
        };
      }
      case "get_review_comments": {
        const { data } = await pulls.listReviewComments({ ...pr, ...page });
        return { comments: data.map((c) => ({ id: c.id, author: login(c.user), path: c.path, line: c.line ?? null, body: text(c.body), createdAt: c.created_at })) };
      }
      case "get_reviews": {
        const { data } = await pulls.listReviews({ ...pr, ...page });
        return { reviews: data.map((r) => ({ id: r.id, author: login(r.user), state: r.state, body: text(r.body), submittedAt: r.submitted_at })) };
      }
      case "get_comments": {
        const { data } = await issues.listComments({ ...repoOf(ctx), issue_number: pull_number, ...page });
        return { comments: data.map((c) => ({ id: c.id, author: login(c.user), body: text(c.body), createdAt: c.created_at })) };
      }
    }
  },
});

/** The tool run on raw input, in the one tool convention. */
export function pullRequestRead(ctx: ToolContext, input: unknown): Promise<ToolResult<unknown>> {
  return runRepositoryTool(pullRequestReadTool, ctx, input);
}
