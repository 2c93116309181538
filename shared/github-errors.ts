/**
 * One closed set of ways a GitHub call can fail, so every caller (credentials, permission facts, repository tools)
 * can turn a failure into its own typed reason without parsing messages. Rate limits carry when they reset.
 */
export type GitHubFailureKind =
  | "signed-out"
  | "unauthorized"
  | "forbidden"
  | "not-found"
  | "rate-limited"
  | "unavailable"
  | "timeout"
  | "too-large"
  | "invalid-response";

export class GitHubRequestError extends Error {
  readonly kind: GitHubFailureKind;
  readonly status?: number;
  /** Epoch ms when a rate limit resets, when GitHub said so. */
  readonly resetAt?: number;
  constructor(kind: GitHubFailureKind, message: string, extra: { status?: number; resetAt?: number } = {}) {
    super(message);
    this.name = "GitHubRequestError";
    this.kind = kind;
    this.status = extra.status;
    this.resetAt = extra.resetAt;
  }
}

export function isGitHubRequestError(e: unknown): e is GitHubRequestError {
  return e instanceof GitHubRequestError;
}

/** Reads GitHub's rate-limit signals: remaining 0 with a reset, or Retry-After (secondary limits). */
export function rateLimitResetAt(headers: Headers, now: number): number | null {
  const retryAfter = headers.get("retry-after");
  if (retryAfter && /^\d+$/.test(retryAfter)) return now + Number(retryAfter) * 1000;
  if (headers.get("x-ratelimit-remaining") === "0") {
    const reset = Number(headers.get("x-ratelimit-reset"));
    return Number.isFinite(reset) && reset > 0 ? reset * 1000 : now + 60_000;
  }
  return null;
}

/** Maps an HTTP status (and headers) from GitHub to a failure. */
/** "in about 23 minutes (at 07:16)": when a rate limit lifts, in the person's own time, not an ISO timestamp. */
export function resetWords(resetAt: number, now: number): string {
  const minutes = Math.max(1, Math.ceil((resetAt - now) / 60_000));
  const at = new Date(resetAt);
  const clock = `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
  return `in about ${minutes === 1 ? "1 minute" : `${minutes} minutes`} (at ${clock})`;
}

export function failureFromResponse(status: number, headers: Headers, now: number): GitHubRequestError {
  const resetAt = rateLimitResetAt(headers, now);
  if ((status === 403 || status === 429) && resetAt !== null) {
    return new GitHubRequestError("rate-limited", `GitHub's rate limit for this sign-in is used up; it resets ${resetWords(resetAt, now)}.`, { status, resetAt });
  }
  if (status === 401) return new GitHubRequestError("unauthorized", "GitHub did not accept the sign-in token.", { status });
  if (status === 403) return new GitHubRequestError("forbidden", "GitHub refused access to this resource.", { status });
  if (status === 404) return new GitHubRequestError("not-found", "GitHub has no such resource, or it is not visible to this sign-in.", { status });
  if (status >= 500) return new GitHubRequestError("unavailable", `GitHub answered with a server error (${status}).`, { status });
  return new GitHubRequestError("invalid-response", `GitHub answered with an unexpected status (${status}).`, { status });
}
