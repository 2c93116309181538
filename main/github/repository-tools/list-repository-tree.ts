/**
 * list_repository_tree: the paths under an optional prefix at the session pin. Bounds: limit defaults to
 * REPOSITORY_TREE_DEFAULT_ENTRIES and may not exceed MAX_REPOSITORY_TREE_ENTRIES; `truncated` says more entries exist
 * (ours cut them, or GitHub's own recursive-tree limit did).
 */
import { z } from "zod";
import { MAX_REPOSITORY_TREE_ENTRIES, REPOSITORY_TREE_DEFAULT_ENTRIES } from "../../util/limits.js";
import { checkRepositoryPrefix } from "./path-policy.js";
import { repoOf, type ToolContext, type ToolResult, runRepositoryTool } from "./tool-result.js";
import { defineTool } from "../../util/tool-registry.js";
import { ChopinError } from "../../../shared/errors.js";

export const listRepositoryTreeInput = z.strictObject({
  prefix: z.string().optional(),
  limit: z.number().int().min(1).max(MAX_REPOSITORY_TREE_ENTRIES).optional(),
});

export interface TreeListing {
  commitSha: string;
  entries: { path: string; type: "file" | "directory" | "submodule"; size?: number }[];
  truncated: boolean;
}

export const listRepositoryTreeTool = defineTool({
  name: "list_repository_tree",
  description: "List the files and folders of the bound repository at the pinned commit, under an optional prefix, bounded.",
  input: listRepositoryTreeInput,
  errors: ["invalid-path", "not-found", "timeout", "rate-limited", "unauthorized", "forbidden", "github-unavailable"],
  async handler({ prefix, limit }, ctx: ToolContext): Promise<TreeListing> {
      let dir: string | null = null;
      if (prefix !== undefined && prefix !== "") {
        const checked = checkRepositoryPrefix(prefix);
        if (!checked.ok) throw new ChopinError("invalid-path", `Refused prefix: ${checked.reason}.`);
        dir = checked.path;
      }
      const max = limit ?? REPOSITORY_TREE_DEFAULT_ENTRIES;
      const { data: body } = await ctx.rest.octokit.rest.git.getTree({ ...repoOf(ctx), tree_sha: ctx.pin.commitSha, recursive: "1" });
      const tree = body.tree.flatMap((e) => (e.path === undefined ? [] : [{ ...e, path: e.path }]));
      const matching = tree.filter((e) => dir === null || e.path.startsWith(`${dir}/`));
      if (dir !== null && matching.length === 0 && !tree.some((e) => e.path === dir)) {
        throw new ChopinError("not-found", `Nothing exists under ${dir} at the pinned commit.`);
      }
      return {
        commitSha: ctx.pin.commitSha,
        entries: matching.slice(0, max).map((e) => ({
          path: e.path,
          type: e.type === "tree" ? "directory" : e.type === "commit" ? "submodule" : "file",
          ...(e.type === "blob" && e.size !== undefined ? { size: e.size } : {}),
        })),
        truncated: matching.length > max || body.truncated === true,
      };
  },
});

/** The tool run on raw input, in the one tool convention. */
export function listRepositoryTree(ctx: ToolContext, input: unknown): Promise<ToolResult<TreeListing>> {
  return runRepositoryTool(listRepositoryTreeTool, ctx, input);
}
