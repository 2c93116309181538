/**
 * zod issues as words an agent can act on ("title: Too big: expected string to have <=120 characters", "params.name
 * should be a string, not a number"), for the protocol's params (request-params.ts) and the tools' arguments
 * (tools.ts) alike. What must stay true: nothing an agent sent is echoed beyond MAX_MCP_PARAMS_PATH_CHARS of a path,
 * and at most MAX_MCP_PARAMS_ISSUES_LISTED issues are listed.
 */
import { MAX_MCP_PARAMS_ISSUES_LISTED, MAX_MCP_PARAMS_PATH_CHARS } from "./limits.js";

export interface IssueWords {
  path: string;
  message: string;
}

function shownPath(path: readonly PropertyKey[], root: string): string {
  const joined = path.map(String).join(".") || root;
  return joined.length > MAX_MCP_PARAMS_PATH_CHARS ? `${joined.slice(0, MAX_MCP_PARAMS_PATH_CHARS)}…` : joined;
}

function withArticle(kind: string): string {
  if (kind === "null" || kind === "undefined") return kind;
  return `${/^[aeiou]/i.test(kind) ? "an" : "a"} ${kind}`;
}

/** One zod issue as words about the value at `path`. */
function describeIssue(path: string, message: string): string {
  const typed = /^Invalid input: expected (\w+), received (\w+)$/.exec(message);
  if (typed?.[2] === "undefined") return `${path} is missing`;
  if (typed) return `${path} should be ${withArticle(typed[1])}, not ${withArticle(typed[2])}`;
  if (message === "Invalid input") return `${path} is not valid`;
  return `${path}: ${message.replace(/\.$/, "")}`;
}

/** What any zod version's issue has. */
export interface ZodLikeIssue {
  path: readonly PropertyKey[];
  message: string;
}

/** The listed issues (path and words) and one sentence: `${lead}: <the first issue> (and N more problems).` */
export function issueWords(issues: readonly ZodLikeIssue[], lead: string, root = "the request"): { issues: IssueWords[]; sentence: string } {
  const listed = issues.slice(0, MAX_MCP_PARAMS_ISSUES_LISTED).map((issue) => {
    const path = shownPath(issue.path, root);
    return { path, message: describeIssue(path, issue.message) };
  });
  const more = issues.length - 1;
  const sentence = `${lead}: ${listed[0]?.message ?? "not valid"}${more > 0 ? ` (and ${more} more ${more === 1 ? "problem" : "problems"})` : ""}.`;
  return { issues: listed, sentence };
}
