/**
 * The bounded read-only repository tools, in one registry (main/util/tool-registry.ts) under their Planner names. Each
 * runs against a ToolContext (binding and pin, never taken from tool input); issue tools and general search
 * deliberately do not exist here.
 */
import { ToolRegistry } from "../../util/tool-registry.js";
import { listPullRequestsTool, pullRequestReadTool } from "./pull-requests.js";
import { listRepositoryTreeTool } from "./list-repository-tree.js";
import { readRepositoryFileTool } from "./read-repository-file.js";
import { repositoryHistoryTool } from "./repository-history.js";
import { searchRepositoryTool } from "./search-repository.js";
import { readRepositoryToolError, type ToolContext } from "./tool-result.js";

export const REPOSITORY_TOOLS = new ToolRegistry<ToolContext>(
  [readRepositoryFileTool, listRepositoryTreeTool, repositoryHistoryTool, searchRepositoryTool, listPullRequestsTool, pullRequestReadTool],
  readRepositoryToolError,
);

export { listPullRequests, pullRequestRead } from "./pull-requests.js";
export { listRepositoryTree } from "./list-repository-tree.js";
export { readRepositoryFile } from "./read-repository-file.js";
export { repositoryHistory } from "./repository-history.js";
export { searchRepository } from "./search-repository.js";
export { checkRepositoryPath, checkRepositoryPrefix } from "./path-policy.js";
export { checkSearchTerms } from "./search-repository.js";
export type { ToolContext, ToolResult } from "./tool-result.js";
