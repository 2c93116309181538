/**
 * The admission rule as the app checks it for the signed-in user (the relay applies the same rule on its side in
 * sync-relay/admission/, which may not import main/): admitted when both allowlists are empty, when the login is an
 * allowed user, or when the user is an ACTIVE member of an allowed organization. Logins and org names compare
 * case-insensitively, as GitHub's do. Outages throw (the caller fails closed); they are never read as "not admitted".
 */
import { GitHubRequestError } from "../../shared/github-errors.js";
import type { GitHubRest } from "./rest-client.js";

export interface AdmissionPolicy {
  allowedUsers: readonly string[];
  allowedOrganizations: readonly string[];
}

export type AdmissionDecision = { admitted: true; via: "unrestricted" | "user" | "organization" } | { admitted: false };

export async function checkAdmission(rest: GitHubRest, login: string, policy: AdmissionPolicy): Promise<AdmissionDecision> {
  if (policy.allowedUsers.length === 0 && policy.allowedOrganizations.length === 0) return { admitted: true, via: "unrestricted" };
  if (policy.allowedUsers.some((u) => u.toLowerCase() === login.toLowerCase())) return { admitted: true, via: "user" };
  for (const org of policy.allowedOrganizations) {
    try {
      const { data: m } = await rest.octokit.rest.orgs.getMembershipForAuthenticatedUser({ org });
      if (m.state === "active") return { admitted: true, via: "organization" };
    } catch (e) {
      // 404: not a member; 403 without a rate limit: the org has not granted the App membership reads.
      if (e instanceof GitHubRequestError && (e.kind === "not-found" || e.kind === "forbidden")) continue;
      throw e;
    }
  }
  return { admitted: false };
}
