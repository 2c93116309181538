/**
 * What every repository tool shares: its context (the binding and the pin, never taken from tool input), the reading
 * of GitHub's failures as refusals with a code from ERROR_CODES and a sentence, and its run in the one tool convention
 * (main/util/tool-registry.ts: a value, or a typed error; anything unexpected 'internal' without a stack trace).
 */
import type { ErrorShape } from "../../../shared/errors.js";
import { runTool, type ErrorReader, type ToolDefinition, type ToolOutcome } from "../../util/tool-registry.js";
import { GitHubRequestError } from "../../../shared/github-errors.js";
import type { RepositoryBinding, SessionPin } from "../repository-binding.js";
import type { GitHubRest } from "../rest-client.js";

/** What a repository tool answers: the one tool convention (main/util/tool-registry.ts). */
export type ToolResult<T> = ToolOutcome<T>;

/** Everything a tool may touch: owner and repository come from the binding, never from tool input. */
export interface ToolContext {
  rest: GitHubRest;
  binding: RepositoryBinding;
  /** The default branch's commit captured when the caller's session was created. */
  pin: SessionPin;
}

export function fromGitHubError(e: GitHubRequestError): ErrorShape {
  switch (e.kind) {
    case "not-found":
      return { code: "not-found", message: "GitHub has nothing at that location in the bound repository (at the pinned commit)." };
    case "rate-limited":
      return {
        code: "rate-limited",
        message: "GitHub's rate limit is exhausted; try again after it resets.",
        ...(e.resetAt ? { details: { retryAfterSeconds: Math.max(0, Math.ceil((e.resetAt - Date.now()) / 1000)) } } : {}),
      };
    case "timeout":
      return { code: "timeout", message: e.message };
    case "too-large":
      return { code: "too-large", message: e.message };
    case "unauthorized":
    case "signed-out":
      return { code: "unauthorized", message: "The GitHub sign-in is not valid any more." };
    case "forbidden":
      return { code: "forbidden", message: "GitHub refused access to this resource." };
    default:
      return { code: "github-unavailable", message: e.message };
  }
}

/** GitHub's failures as a repository tool's refusal; anything else is not ours to read (the registry says 'internal'). */
export const readRepositoryToolError: ErrorReader = (error) => (error instanceof GitHubRequestError ? fromGitHubError(error) : null);

/** Runs a repository tool on raw input, in the one tool convention. */
export function runRepositoryTool<I, R>(tool: ToolDefinition<ToolContext, I, R>, ctx: ToolContext, input: unknown): Promise<ToolOutcome<R>> {
  return runTool(tool, input, ctx, readRepositoryToolError);
}

/** Owner and repository for octokit's endpoints: from the binding, never from tool input. */
export function repoOf(ctx: ToolContext): { owner: string; repo: string } {
  return { owner: ctx.binding.owner, repo: ctx.binding.name };
}

/** Cuts free text returned to the model. */
export function clip(text: string | null | undefined, max: number): string {
  const t = text ?? "";
  return t.length > max ? `${t.slice(0, max)}…` : t;
}
