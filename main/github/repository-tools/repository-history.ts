/**
 * repository_history: commits reachable from the session pin, optionally only those touching a path. Bounds: limit
 * defaults to REPOSITORY_HISTORY_DEFAULT_COMMITS and may not exceed MAX_REPOSITORY_HISTORY_COMMITS.
 */
import { z } from "zod";
import { MAX_GITHUB_TEXT_FIELD_CHARS, MAX_REPOSITORY_HISTORY_COMMITS, REPOSITORY_HISTORY_DEFAULT_COMMITS } from "../../util/limits.js";
import { checkRepositoryPrefix } from "./path-policy.js";
import { clip, repoOf, type ToolContext, type ToolResult, runRepositoryTool } from "./tool-result.js";
import { defineTool } from "../../util/tool-registry.js";
import { ChopinError } from "../../../shared/errors.js";

export const repositoryHistoryInput = z.strictObject({
  path: z.string().optional(),
  limit: z.number().int().min(1).max(MAX_REPOSITORY_HISTORY_COMMITS).optional(),
});

export interface HistoryEntry {
  sha: string;
  message: string;
  author: string;
  date: string;
}


export const repositoryHistoryTool = defineTool({
  name: "repository_history",
  description: "The newest commits of the bound repository up to the pinned commit, for the whole repository or one path, bounded.",
  input: repositoryHistoryInput,
  errors: ["invalid-path", "not-found", "timeout", "rate-limited", "unauthorized", "forbidden", "github-unavailable"],
  async handler({ path, limit }, ctx: ToolContext): Promise<{ commitSha: string; commits: HistoryEntry[] }> {
      let checkedPath: string | undefined;
      if (path !== undefined && path !== "") {
        const checked = checkRepositoryPrefix(path);
        if (!checked.ok) throw new ChopinError("invalid-path", `Refused path: ${checked.reason}.`);
        checkedPath = checked.path;
      }
      const n = limit ?? REPOSITORY_HISTORY_DEFAULT_COMMITS;
      const { data: body } = await ctx.rest.octokit.rest.repos.listCommits({ ...repoOf(ctx), sha: ctx.pin.commitSha, path: checkedPath, per_page: n });
      return {
        commitSha: ctx.pin.commitSha,
        commits: body.slice(0, n).map((c) => ({
          sha: c.sha,
          message: clip(c.commit.message, MAX_GITHUB_TEXT_FIELD_CHARS),
          author: c.author?.login ?? c.commit.author?.name ?? "unknown",
          date: c.commit.author?.date ?? "",
        })),
      };
  },
});

/** The tool run on raw input, in the one tool convention. */
export function repositoryHistory(ctx: ToolContext, input: unknown): Promise<ToolResult<{ commitSha: string; commits: HistoryEntry[] }>> {
  return runRepositoryTool(repositoryHistoryTool, ctx, input);
}
