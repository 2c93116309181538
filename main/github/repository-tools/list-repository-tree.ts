/**
 * list_repository_tree: the paths under an optional prefix at the session pin. Bounds: limit defaults to
 * REPOSITORY_TREE_DEFAULT_ENTRIES and may not exceed MAX_REPOSITORY_TREE_ENTRIES; `truncated` says more entries exist
 * (ours cut them, or GitHub's own recursive-tree limit did).
 */
import { z } from "zod";
import { MAX_REPOSITORY_TREE_ENTRIES, REPOSITORY_TREE_DEFAULT_ENTRIES } from "../../util/limits.js";
import { repoPath } from "../repository-binding.js";
import { checkRepositoryPrefix } from "./path-policy.js";
import { runTool, ToolFailure, type ToolContext, type ToolResult } from "./tool-result.js";

export const listRepositoryTreeInput = z.strictObject({
  prefix: z.string().optional(),
  limit: z.number().int().min(1).max(MAX_REPOSITORY_TREE_ENTRIES).optional(),
});

export interface TreeListing {
  commitSha: string;
  entries: { path: string; type: "file" | "directory" | "submodule"; size?: number }[];
  truncated: boolean;
}

export function listRepositoryTree(ctx: ToolContext, input: unknown): Promise<ToolResult<TreeListing>> {
  return runTool(listRepositoryTreeInput, input, async ({ prefix, limit }) => {
    let dir: string | null = null;
    if (prefix !== undefined && prefix !== "") {
      const checked = checkRepositoryPrefix(prefix);
      if (!checked.ok) throw new ToolFailure("invalid-path", `Refused prefix: ${checked.reason}.`);
      dir = checked.path;
    }
    const max = limit ?? REPOSITORY_TREE_DEFAULT_ENTRIES;
    const body = await ctx.rest.getJson<{ tree: { path: string; type: string; size?: number }[]; truncated?: boolean }>(
      repoPath(ctx.binding, `/git/trees/${ctx.pin.commitSha}`),
      { query: { recursive: 1 } },
    );
    const matching = body.tree.filter((e) => dir === null || e.path.startsWith(`${dir}/`));
    if (dir !== null && matching.length === 0 && !body.tree.some((e) => e.path === dir)) {
      throw new ToolFailure("not-found", `Nothing exists under ${dir} at the pinned commit.`);
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
  });
}
