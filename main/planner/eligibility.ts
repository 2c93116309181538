/**
 * Whether this app may run the Planner in a plan now (issue #25, "Eligible"): a model provider is available (a provider
 * configured in Settings or on the command line, or a GitHub sign-in, whose Copilot access the Planner runs on), and, when the plan is
 * bound to a repository, the person may push to or administer it and the Chopin GitHub App's installation still
 * reaches it (the permission facts of issue #3). Being admitted at the relay is the relay's own check at claim time.
 *
 * What must stay true: every doubt refuses (fail closed) with a typed error whose sentence says what to do; a binding
 * named by owner and name only (set over MCP, never chosen through GitHub) cannot be checked, so it refuses too.
 */
import { ChopinError } from "../../shared/errors.js";
import type { RepositoryBinding as PlanRepository } from "../../shared/schema/plan-document.js";
import type { Credential } from "../github/credentials.js";
import type { PermissionFact, PermissionFacts } from "../github/permission-facts.js";
import { checkableBinding } from "./checkable-binding.js";

export interface EligibilityDeps {
  credential(): Credential | null;
  /** The permission facts over the current sign-in; null when GitHub sign-in is not configured here. */
  facts: Pick<PermissionFacts, "hasPushOrAdmin" | "installationHasAccess"> | null;
  /** A model provider is configured on this app (Settings or the command line): the Planner needs no GitHub sign-in. */
  providerConfigured?: () => boolean;
  /** The Planner is turned off on this app (AGENT=off, or the Settings switch). */
  plannerOff?: () => boolean;
  /** What is wrong with the provider configured here (its key cannot be read), or null. */
  providerProblem?: () => ChopinError | null;
  now?: () => number;
}

export type PlannerEligibility = (repository: PlanRepository | null) => Promise<ChopinError | null>;

export function plannerEligibility(deps: EligibilityDeps): PlannerEligibility {
  const now = deps.now ?? Date.now;
  return async (repository) => {
    if (deps.plannerOff?.()) return new ChopinError("not-configured", "The Planner is turned off on this app.");
    const problem = deps.providerProblem?.() ?? null;
    if (problem) return problem;
    const credential = deps.credential();
    if (repository === null && deps.providerConfigured?.()) return null;
    if (!credential || !deps.facts) {
      return new ChopinError("unauthorized", "Sign in to GitHub to run the Planner here: it runs on your GitHub Copilot access.");
    }
    if (credential.expiresAt !== null && credential.expiresAt <= now()) {
      return new ChopinError("unauthorized", "Your GitHub sign-in has expired; the Planner can run here again once it is renewed.");
    }
    if (repository === null) return null;
    const checkable = checkableBinding(repository);
    if ("refusal" in checkable) return new ChopinError("forbidden", checkable.refusal);
    const { binding } = checkable;
    const refusal = (fact: PermissionFact) => (fact.ok ? null : new ChopinError(fact.reason === "github-unavailable" || fact.reason === "rate-limited" ? "github-unavailable" : "forbidden", fact.message, { reason: fact.reason }));
    return refusal(await deps.facts.hasPushOrAdmin(binding)) ?? refusal(await deps.facts.installationHasAccess(binding));
  };
}
