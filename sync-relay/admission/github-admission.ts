/**
 * Relay admission by GitHub token: verify the token against the configured API base (GET /user, then
 * GET /user/memberships/orgs/{org} for each allowed organization) and admit by allowed users ∪ active members of
 * allowed organizations; both lists empty admits every valid GitHub user. What must stay true:
 *  - fail closed: when GitHub cannot answer, the answer is 'github-unavailable' (refuse the NEW connection) and it is
 *    never cached, so the next attempt asks again; callers keep live connections on that code;
 *  - definite answers (admitted, not-admitted, invalid-token) are cached for cacheMs keyed by sha256(token);
 *  - concurrent checks of one token share one GitHub round trip.
 * GitHub is asked through the same bounded octokit client the app uses (shared/node/github-client.ts). Imports only
 * shared/ (the relay's layering rule).
 */
import { GitHubRequestError } from "../../shared/github-errors.js";
import { GITHUB_REQUEST_TIMEOUT_MS } from "../../shared/limits.js";
import { createGitHubClient } from "../../shared/node/github-client.js";
import { GITHUB_ADMISSION_CACHE_MS, MAX_GITHUB_ADMISSION_CACHE_ENTRIES, MAX_GITHUB_TOKEN_CHARS } from "../limits.js";
import { tokenHash, TtlCache } from "./admission-cache.js";

export type AdmissionCode = "not-admitted" | "invalid-token" | "github-unavailable";

export type AdmissionResult = { ok: true; login: string } | { ok: false; reason: string; code: AdmissionCode };

export interface GitHubAdmissionOptions {
  apiBaseUrl: string;
  allowedUsers: readonly string[];
  allowedOrganizations: readonly string[];
  cacheMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
  timeoutMs?: number;
}

export interface GitHubAdmission {
  verify(token: string): Promise<AdmissionResult>;
  /** Drops the cached answer for one token (or all), e.g. before re-verifying live connections. */
  forget(token?: string): void;
}

/** A definite "no" from GitHub about the token itself (as opposed to GitHub being unreachable or limited). */
const TOKEN_REFUSED: ReadonlySet<string> = new Set(["unauthorized", "forbidden", "not-found"]);
/** A membership GitHub will not show: 404 not a member, 403 the organization does not let the App read memberships. */
const NOT_A_MEMBER: ReadonlySet<string> = new Set(["forbidden", "not-found"]);

export function createGitHubAdmission(options: GitHubAdmissionOptions): GitHubAdmission {
  const now = options.now ?? Date.now;
  const cache = new TtlCache<AdmissionResult>(options.cacheMs ?? GITHUB_ADMISSION_CACHE_MS, MAX_GITHUB_ADMISSION_CACHE_ENTRIES, now);
  const inFlight = new Map<string, Promise<AdmissionResult>>();
  const users = new Set(options.allowedUsers.map((u) => u.toLowerCase()));

  async function check(token: string): Promise<AdmissionResult> {
    const github = createGitHubClient({
      baseUrl: options.apiBaseUrl,
      token: () => token,
      userAgent: "chopin-relay",
      fetch: options.fetch,
      timeoutMs: options.timeoutMs ?? GITHUB_REQUEST_TIMEOUT_MS,
    });
    try {
      let login: string;
      try {
        login = (await github.rest.users.getAuthenticated()).data.login;
      } catch (e) {
        if (e instanceof GitHubRequestError && TOKEN_REFUSED.has(e.kind)) {
          return { ok: false, code: "invalid-token", reason: "GitHub did not accept this token. Sign in to GitHub again." };
        }
        throw e;
      }
      if (users.size === 0 && options.allowedOrganizations.length === 0) return { ok: true, login };
      if (users.has(login.toLowerCase())) return { ok: true, login };
      for (const org of options.allowedOrganizations) {
        try {
          const { data } = await github.rest.orgs.getMembershipForAuthenticatedUser({ org });
          if (data.state === "active") return { ok: true, login };
        } catch (e) {
          if (!(e instanceof GitHubRequestError && NOT_A_MEMBER.has(e.kind))) throw e;
        }
      }
      return { ok: false, code: "not-admitted", reason: `${login} is not an allowed user or an active member of an allowed organization on this relay.` };
    } catch (e) {
      // Anything that stops the check, expected or not, refuses the connection: admission fails closed.
      const why = e instanceof GitHubRequestError ? e.message.replace(/\.$/, "") : "the check failed unexpectedly";
      return { ok: false, code: "github-unavailable", reason: `The relay cannot verify GitHub sign-ins right now (${why}); try again shortly.` };
    }
  }

  return {
    verify(token) {
      if (typeof token !== "string" || token.length === 0 || token.length > MAX_GITHUB_TOKEN_CHARS) {
        return Promise.resolve({ ok: false, code: "invalid-token", reason: "No usable GitHub token was presented." });
      }
      const key = tokenHash(token);
      const hit = cache.get(key);
      if (hit) return Promise.resolve(hit);
      let pending = inFlight.get(key);
      if (!pending) {
        pending = check(token)
          .then((result) => {
            if (result.ok || result.code !== "github-unavailable") cache.set(key, result);
            return result;
          })
          .finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },
    forget(token) {
      if (token === undefined) cache.clear();
      else cache.delete(tokenHash(token));
    },
  };
}
