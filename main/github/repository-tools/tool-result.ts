/**
 * What every repository tool returns: a value, or a typed error a model can read and act on (a code and a sentence).
 * Tools never throw for expected failures; `runTool` turns GitHub failures and input problems into values, and
 * anything unexpected into an 'internal' error without a stack trace.
 */
import type { z } from "zod";
import { GitHubRequestError } from "../github-errors.js";
import type { RepositoryBinding, SessionPin } from "../repository-binding.js";
import type { GitHubRest } from "../rest-client.js";

export type RepositoryToolErrorCode =
  | "invalid-input"
  | "invalid-path"
  | "out-of-scope"
  | "not-found"
  | "not-a-file"
  | "too-large"
  | "binary-file"
  | "not-utf8"
  | "timeout"
  | "rate-limited"
  | "unauthorized"
  | "forbidden"
  | "github-unavailable"
  | "internal";

export interface RepositoryToolError {
  code: RepositoryToolErrorCode;
  message: string;
  /** For rate limits: seconds until GitHub resets the limit. */
  retryAfterSeconds?: number;
}

export type ToolResult<T> = { ok: true; value: T } | { ok: false; error: RepositoryToolError };

/** Everything a tool may touch: owner and repository come from the binding, never from tool input. */
export interface ToolContext {
  rest: GitHubRest;
  binding: RepositoryBinding;
  /** The default branch's commit captured when the caller's session was created. */
  pin: SessionPin;
}

export class ToolFailure extends Error {
  constructor(
    readonly code: RepositoryToolErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function fromGitHubError(e: GitHubRequestError): RepositoryToolError {
  switch (e.kind) {
    case "not-found":
      return { code: "not-found", message: "GitHub has nothing at that location in the bound repository (at the pinned commit)." };
    case "rate-limited":
      return {
        code: "rate-limited",
        message: "GitHub's rate limit is exhausted; try again after it resets.",
        ...(e.resetAt ? { retryAfterSeconds: Math.max(0, Math.ceil((e.resetAt - Date.now()) / 1000)) } : {}),
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

/** Parses input with a strict schema (unknown keys such as owner/repo are refused) and runs the tool body. */
export async function runTool<S extends z.ZodType, T>(schema: S, input: unknown, body: (input: z.infer<S>) => Promise<T>): Promise<ToolResult<T>> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    return { ok: false, error: { code: "invalid-input", message: `${where}${issue?.message ?? "invalid input"}` } };
  }
  try {
    return { ok: true, value: await body(parsed.data) };
  } catch (e) {
    if (e instanceof ToolFailure) return { ok: false, error: { code: e.code, message: e.message } };
    if (e instanceof GitHubRequestError) return { ok: false, error: fromGitHubError(e) };
    return { ok: false, error: { code: "internal", message: "The repository tool failed unexpectedly." } };
  }
}

/** Cuts free text returned to the model. */
export function clip(text: string | null | undefined, max: number): string {
  const t = text ?? "";
  return t.length > max ? `${t.slice(0, max)}…` : t;
}
