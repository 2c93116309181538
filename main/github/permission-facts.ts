/**
 * The facts the Planner's permission gate checks before every host tool call, each with an explicit freshness bound:
 * is this user admitted, may they push (or administer) the bound repository, does the App installation still reach
 * it, is the credential revision current and unexpired. What must stay true:
 *  - a cached answer is never older than min(caller's maxAgeMs, GITHUB_PERMISSION_FACT_MAX_AGE_MS);
 *  - caches are keyed by credential revision, so a new sign-in or refresh never reuses an older credential's answer;
 *  - GitHub outages are answered 'github-unavailable' (deny) and never cached; only definite answers are cached.
 */
import { GITHUB_MAX_PAGE_SIZE, GITHUB_PERMISSION_FACT_MAX_AGE_MS, MAX_GITHUB_INSTALLATION_REPOSITORIES_LISTED } from "../util/limits.js";
import { checkAdmission, type AdmissionPolicy } from "./admission-check.js";
import { systemClock, type Clock } from "./clock.js";
import type { Credential } from "./credentials.js";
import { GitHubRequestError } from "../../shared/github-errors.js";
import { followBinding, type RepositoryBinding } from "./repository-binding.js";
import type { GitHubRest } from "./rest-client.js";

export type PermissionDenialReason =
  | "signed-out"
  | "credential-stale"
  | "credential-expired"
  | "credential-invalid"
  | "not-admitted"
  | "no-push-access"
  | "installation-revoked"
  | "repository-gone"
  | "rate-limited"
  | "github-unavailable";

export type PermissionFact =
  | { ok: true; checkedAt: number }
  | { ok: false; reason: PermissionDenialReason; message: string; checkedAt: number };

export interface CredentialSource {
  current(): Credential | null;
}

export interface FactOptions {
  /** The caller's freshness bound; clamped to GITHUB_PERMISSION_FACT_MAX_AGE_MS. 0 forces a fresh check. */
  maxAgeMs?: number;
}

export interface PermissionFacts {
  isAdmitted(options?: FactOptions): Promise<PermissionFact>;
  hasPushOrAdmin(binding: RepositoryBinding, options?: FactOptions): Promise<PermissionFact>;
  installationHasAccess(binding: RepositoryBinding, options?: FactOptions): Promise<PermissionFact>;
  /** Pure and immediate: the revision a session was bound to is still the held one, and it has not expired. */
  isCredentialCurrent(revision: number): PermissionFact;
  /** Forgets every cached answer. */
  invalidate(): void;
}

export interface PermissionFactsOptions {
  credentials: CredentialSource;
  rest: GitHubRest;
  policy: AdmissionPolicy;
  clock?: Clock;
  /** Upper bound on the age of any cached answer; defaults to GITHUB_PERMISSION_FACT_MAX_AGE_MS and cannot exceed it. */
  maxAgeMs?: number;
}

const deny = (reason: PermissionDenialReason, message: string, checkedAt: number): PermissionFact => ({ ok: false, reason, message, checkedAt });

/** Translates a GitHub failure into a denial; `notFound` says what a 404 means for this particular fact. */
function fromFailure(e: unknown, now: number, notFound: PermissionFact): PermissionFact {
  if (!(e instanceof GitHubRequestError)) throw e;
  switch (e.kind) {
    case "not-found":
      return notFound;
    case "unauthorized":
    case "signed-out":
      return deny("credential-invalid", "GitHub no longer accepts this sign-in; sign in again.", now);
    case "rate-limited":
      return deny("rate-limited", `GitHub's rate limit is exhausted${e.resetAt ? ` until ${new Date(e.resetAt).toISOString()}` : ""}; the check could not run.`, now);
    case "forbidden":
      return notFound;
    default:
      return deny("github-unavailable", `GitHub could not be asked (${e.message}); denied until it answers.`, now);
  }
}

/** Answers that say something about the world (not about GitHub's health) may be cached. */
const cacheable = (f: PermissionFact) => f.ok || !["github-unavailable", "rate-limited"].includes(f.reason);

export function createPermissionFacts(options: PermissionFactsOptions): PermissionFacts {
  const clock = options.clock ?? systemClock;
  const bound = Math.min(options.maxAgeMs ?? GITHUB_PERMISSION_FACT_MAX_AGE_MS, GITHUB_PERMISSION_FACT_MAX_AGE_MS);
  const cache = new Map<string, PermissionFact>();

  async function cached(key: string, opts: FactOptions | undefined, compute: (cred: Credential) => Promise<PermissionFact>): Promise<PermissionFact> {
    const now = clock.now();
    const cred = options.credentials.current();
    if (!cred) return deny("signed-out", "Nobody is signed in to GitHub.", now);
    if (cred.expiresAt !== null && cred.expiresAt <= now) return deny("credential-expired", "The GitHub sign-in has expired and is being refreshed.", now);
    const maxAge = Math.min(opts?.maxAgeMs ?? bound, bound);
    const fullKey = `${cred.revision}:${key}`;
    const hit = cache.get(fullKey);
    if (hit && now - hit.checkedAt < maxAge) return hit;
    const fact = await compute(cred);
    // The answer is for the credential it was computed with; a newer one must not inherit it.
    if (cacheable(fact) && options.credentials.current()?.revision === cred.revision) {
      for (const k of cache.keys()) if (!k.startsWith(`${cred.revision}:`)) cache.delete(k);
      cache.set(fullKey, fact);
    }
    return fact;
  }

  return {
    isAdmitted(opts) {
      return cached("admitted", opts, async (cred) => {
        const now = clock.now();
        try {
          const decision = await checkAdmission(options.rest, cred.identity.login, options.policy);
          return decision.admitted ? { ok: true, checkedAt: now } : deny("not-admitted", `${cred.identity.login} is not among the allowed users or organizations.`, now);
        } catch (e) {
          return fromFailure(e, now, deny("github-unavailable", "GitHub could not confirm the membership.", now));
        }
      });
    },

    hasPushOrAdmin(binding, opts) {
      return cached(`push:${binding.nodeId}`, opts, async (cred) => {
        const now = clock.now();
        const gone = deny("repository-gone", "The bound repository is not visible to this sign-in any more.", now);
        try {
          // Follow by id first so a renamed or transferred repository is asked about under its current name.
          const current = await followBinding(options.rest, binding);
          const { data: p } = await options.rest.octokit.rest.repos.getCollaboratorPermissionLevel({
            owner: current.owner,
            repo: current.name,
            username: cred.identity.login,
          });
          return p.permission === "admin" || p.permission === "write"
            ? { ok: true, checkedAt: now }
            : deny("no-push-access", `${cred.identity.login} has ${p.permission ?? "no"} access to ${current.owner}/${current.name}; push or admin is required.`, now);
        } catch (e) {
          if (e instanceof GitHubRequestError) return fromFailure(e, now, gone);
          return gone; // followBinding refused: the id names another repository now
        }
      });
    },

    installationHasAccess(binding, opts) {
      return cached(`installation:${binding.installationId}:${binding.nodeId}`, opts, async () => {
        const now = clock.now();
        const revoked = deny("installation-revoked", "The Chopin GitHub App no longer has access to the bound repository.", now);
        try {
          const pages = options.rest.octokit.paginate.iterator(options.rest.octokit.rest.apps.listInstallationReposForAuthenticatedUser, {
            installation_id: binding.installationId,
            per_page: GITHUB_MAX_PAGE_SIZE,
          });
          let seen = 0;
          for await (const { data: repositories } of pages) {
            if (repositories.some((r) => r.node_id === binding.nodeId)) return { ok: true, checkedAt: now };
            seen += repositories.length;
            if (seen >= MAX_GITHUB_INSTALLATION_REPOSITORIES_LISTED) break;
          }
          return revoked;
        } catch (e) {
          return fromFailure(e, now, revoked);
        }
      });
    },

    isCredentialCurrent(revision) {
      const now = clock.now();
      const cred = options.credentials.current();
      if (!cred) return deny("signed-out", "Nobody is signed in to GitHub.", now);
      if (cred.revision !== revision) return deny("credential-stale", `The session was bound to credential revision ${revision}; the current one is ${cred.revision}.`, now);
      if (cred.expiresAt !== null && cred.expiresAt <= now) return deny("credential-expired", "The GitHub sign-in has expired.", now);
      return { ok: true, checkedAt: now };
    },

    invalidate: () => cache.clear(),
  };
}
