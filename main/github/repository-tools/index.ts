/**
 * The bounded read-only repository tools by their Planner names. Each takes (ToolContext, input) and resolves to a
 * ToolResult; issue tools and general search deliberately do not exist here.
 */
import { listPullRequests, pullRequestRead } from "./pull-requests.js";
import { listRepositoryTree } from "./list-repository-tree.js";
import { readRepositoryFile } from "./read-repository-file.js";
import { repositoryHistory } from "./repository-history.js";
import { searchRepository } from "./search-repository.js";
import type { ToolContext, ToolResult } from "./tool-result.js";

export const REPOSITORY_TOOLS = {
  read_repository_file: readRepositoryFile,
  list_repository_tree: listRepositoryTree,
  repository_history: repositoryHistory,
  search_repository: searchRepository,
  list_pull_requests: listPullRequests,
  pull_request_read: pullRequestRead,
} satisfies Record<string, (ctx: ToolContext, input: unknown) => Promise<ToolResult<unknown>>>;

export type RepositoryToolName = keyof typeof REPOSITORY_TOOLS;

export { checkRepositoryPath, checkRepositoryPrefix } from "./path-policy.js";
export { checkSearchTerms } from "./search-repository.js";
export type { RepositoryToolError, RepositoryToolErrorCode, ToolContext, ToolResult } from "./tool-result.js";
