/**
 * What is said about a token supplied at launch (CHOPIN_GITHUB_TOKEN) that does not sign in: refused unsent when it
 * cannot be a token at all, else GitHub's answer to GET /user turned into the contract's typed error. What must stay
 * true: every sentence names where the token came from and says Chopin is signed out, and none repeats the token.
 */
import { ChopinError } from "../../shared/errors.js";
import { GitHubRequestError } from "../../shared/github-errors.js";
import { MAX_GITHUB_SUPPLIED_TOKEN_CHARS } from "../util/limits.js";
import { GITHUB_TOKEN_ENV } from "./github-config.js";

/** Where a supplied token comes from, as people are told: the only source there is. */
export const SUPPLIED_TOKEN_SOURCE = GITHUB_TOKEN_ENV;
/** Printable ASCII without spaces: every GitHub token is; anything else could not even travel in a header. */
const TOKEN_SHAPE = /^[\x21-\x7e]+$/;

/** Refuses, unsent, a supplied token that cannot be one (pasted with spaces, a second line, or far too long). */
export function checkSuppliedTokenShape(token: string): void {
  if (token.length > MAX_GITHUB_SUPPLIED_TOKEN_CHARS || !TOKEN_SHAPE.test(token)) {
    throw new ChopinError(
      "invalid-input",
      `${SUPPLIED_TOKEN_SOURCE} does not look like a GitHub token (at most ${MAX_GITHUB_SUPPLIED_TOKEN_CHARS} characters, no spaces or line breaks), so it was not sent to GitHub. Chopin is signed out of GitHub.`,
      { reason: "malformed" },
    );
  }
}

/** Why a supplied token did not sign in, as the contract's typed error with a sentence that names the token's source. */
export function suppliedTokenRefusal(error: unknown, apiBaseUrl: string): ChopinError {
  const signedOut = "Chopin is signed out of GitHub.";
  if (error instanceof ChopinError) return error;
  if (!(error instanceof GitHubRequestError)) {
    return new ChopinError("internal", `Checking ${SUPPLIED_TOKEN_SOURCE} with GitHub failed unexpectedly. ${signedOut}`);
  }
  switch (error.kind) {
    case "unauthorized":
      return new ChopinError(
        "unauthorized",
        `GitHub at ${apiBaseUrl} did not accept ${SUPPLIED_TOKEN_SOURCE} (401): it may be mistyped, expired or revoked. ${signedOut}`,
        { reason: "token-rejected" },
      );
    case "forbidden":
      return new ChopinError("forbidden", `GitHub at ${apiBaseUrl} refused to say whose ${SUPPLIED_TOKEN_SOURCE} is (403). ${signedOut}`, { reason: "forbidden" });
    default:
      return new ChopinError(
        "github-unavailable",
        `Chopin could not check ${SUPPLIED_TOKEN_SOURCE} with GitHub at ${apiBaseUrl}: ${error.message} ${signedOut} Start it again once GitHub can be reached.`,
        { reason: error.kind, ...(error.resetAt ? { resetAt: error.resetAt } : {}) },
      );
  }
}
