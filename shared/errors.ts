/**
 * Typed errors that cross process boundaries. Every refusal carries a stable code a program can branch on and a
 * human sentence a person can read; nothing else is thrown across the API contract.
 */

export const ERROR_CODES = [
  "invalid-input",
  "not-found",
  "document-archived",
  "document-not-archived",
  "revision-conflict",
  "idempotency-conflict",
  "too-large",
  "unauthorized",
  "forbidden",
  "relay-unavailable",
  "not-shared",
  "already-shared",
  "storage-failure",
  "internal",
  "invalid-document",
  "timeout",
  /** The renderer lost its connection to the core before an answer came; the call may or may not have applied. */
  "core-unreachable",
  /** A feature that needs setup this installation lacks (e.g. no GitHub client id). */
  "not-configured",
  /** GitHub did not answer, or answered with a server error or rate limit; nothing was changed. */
  "github-unavailable",
  /** Too many refused attempts came from this address; nothing was checked. Try again after the time the sentence names. */
  "rate-limited",
  /** The window's link to the core is down right now; the call was never sent (nothing changed) and is not replayed. */
  "core-unavailable",
  /** Sharing was asked for but no team relay is configured; nothing was shared (a private document can be, later). */
  "no-relay",
  /** Another Chopin process already uses this data folder; this one did not start (one writer per database). */
  "already-running",
  /** A repository tool's path escapes the repository or names what the path policy refuses (.git, ..). */
  "invalid-path",
  /** A repository tool was asked to reach outside the bound repository (another repository, a qualifier). */
  "out-of-scope",
  /** A repository tool was pointed at a directory or a link, not a file. */
  "not-a-file",
  /** A repository file holds binary data; only text is read. */
  "binary-file",
  /** A repository file is not valid UTF-8 text. */
  "not-utf8",
  /** The Planner is turned off on this app (AGENT=off) and no other app runs it in this plan; nothing was posted. */
  "planner-off",
  /** Nobody runs the Planner in this plan and this app may not (no sign-in or provider); nothing was posted. */
  "planner-owner-unavailable",
  /** The plan's repository does not let this person run the Planner (push or admin, the App's access); nothing posted. */
  "repository-forbidden",
  /** Agent chat (issue #27) is turned off on this app (Settings → Experimental); nothing was read or changed. */
  "agent-chat-disabled",
  /** No agent profile has that id (it was removed, here or by a teammate); nothing was changed. */
  "agent-not-found",
  /** The built-in Planner profile cannot be removed or renamed; nothing was changed. */
  "agent-built-in",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorShape {
  code: ErrorCode;
  message: string;
  /** Extra machine-readable facts, e.g. the current revision on a conflict. */
  details?: Record<string, unknown>;
}

export class ChopinError extends Error implements ErrorShape {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "ChopinError";
    this.code = code;
    this.details = details;
  }
  toJSON(): ErrorShape {
    return { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}

/** Turns anything thrown into the wire shape; unknown failures become "internal" without leaking stack traces. */
export function toErrorShape(error: unknown): ErrorShape {
  if (error instanceof ChopinError) return error.toJSON();
  if (error && typeof error === "object" && isErrorCode((error as ErrorShape).code)) {
    const e = error as ErrorShape;
    return { code: e.code, message: String(e.message ?? e.code), ...(e.details ? { details: e.details } : {}) };
  }
  return { code: "internal", message: "Something went wrong inside Chopin. The operation was not applied." };
}

export function fromErrorShape(shape: ErrorShape): ChopinError {
  return new ChopinError(shape.code, shape.message, shape.details);
}
