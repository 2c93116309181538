/**
 * Relay admission by GitHub token: verify the token against the configured API base (GET /user, then
 * GET /user/memberships/orgs/{org} for each allowed organization) and admit by allowed users ∪ active members of
 * allowed organizations; both lists empty admits every valid GitHub user. What must stay true:
 *  - fail closed: when GitHub cannot answer, the answer is 'github-unavailable' (refuse the NEW connection) and it is
 *    never cached, so the next attempt asks again; callers keep live connections on that code;
 *  - definite answers (admitted, not-admitted, invalid-token) are cached for cacheMs keyed by sha256(token);
 *  - concurrent checks of one token share one GitHub round trip.
 * Self-contained: imports only shared/ (the relay's layering rule).
 */
import { GITHUB_REQUEST_TIMEOUT_MS } from "../../shared/limits.js";
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

class Unavailable extends Error {}

export function createGitHubAdmission(options: GitHubAdmissionOptions): GitHubAdmission {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? GITHUB_REQUEST_TIMEOUT_MS;
  const cache = new TtlCache<AdmissionResult>(options.cacheMs ?? GITHUB_ADMISSION_CACHE_MS, MAX_GITHUB_ADMISSION_CACHE_ENTRIES, now);
  const inFlight = new Map<string, Promise<AdmissionResult>>();
  const users = new Set(options.allowedUsers.map((u) => u.toLowerCase()));
  const base = options.apiBaseUrl.replace(/\/+$/, "");

  async function get(path: string, token: string): Promise<{ status: number; body: Record<string, unknown> | null }> {
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        headers: { accept: "application/vnd.github+json", authorization: `Bearer ${token}`, "x-github-api-version": "2022-11-28", "user-agent": "chopin-relay" },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      throw new Unavailable(`GitHub could not be reached (${(e as Error).message})`);
    }
    const limited = (res.status === 403 || res.status === 429) && (res.headers.get("x-ratelimit-remaining") === "0" || res.headers.has("retry-after"));
    if (res.status >= 500 || limited) {
      await res.body?.cancel().catch(() => {});
      throw new Unavailable(limited ? "GitHub's rate limit is exhausted" : `GitHub answered ${res.status}`);
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      return { status: res.status, body: null };
    }
    try {
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    } catch {
      throw new Unavailable("GitHub's answer was not JSON");
    }
  }

  async function check(token: string): Promise<AdmissionResult> {
    try {
      const user = await get("/user", token);
      if (user.status === 401 || typeof user.body?.login !== "string") {
        return { ok: false, code: "invalid-token", reason: "GitHub did not accept this token. Sign in to GitHub again." };
      }
      const login = user.body.login;
      if (users.size === 0 && options.allowedOrganizations.length === 0) return { ok: true, login };
      if (users.has(login.toLowerCase())) return { ok: true, login };
      for (const org of options.allowedOrganizations) {
        const m = await get(`/user/memberships/orgs/${encodeURIComponent(org)}`, token);
        // 404: not a member; 403: the organization does not let the App read memberships. Either way, not via this org.
        if (m.status === 200 && m.body?.state === "active") return { ok: true, login };
      }
      return { ok: false, code: "not-admitted", reason: `${login} is not an allowed user or an active member of an allowed organization on this relay.` };
    } catch (e) {
      // Anything that stops the check, expected or not, refuses the connection: admission fails closed.
      const why = e instanceof Unavailable ? e.message : "the check failed unexpectedly";
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
