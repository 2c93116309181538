import { describe, expect, it } from "vitest";
import type { Credential } from "../github/credentials.js";
import type { PermissionFact } from "../github/permission-facts.js";
import { plannerEligibility } from "./eligibility.js";

const NOW = 1_800_000_000_000;
const credential = (expiresAt: number | null = null): Credential => ({ accessToken: "t", revision: 1, expiresAt, identity: { login: "alice", id: 1, name: null }, origin: "device-flow" });
const yes: PermissionFact = { ok: true, checkedAt: NOW };
const no = (reason: "no-push-access" | "installation-revoked" | "github-unavailable", message: string): PermissionFact => ({ ok: false, reason, message, checkedAt: NOW });
const bound = { owner: "octo-org", name: "planets", nodeId: "R_1", repositoryId: 11, installationId: 71, defaultBranch: "main" };

function eligibility(cred: Credential | null, push: PermissionFact = yes, installation: PermissionFact = yes) {
  const asked: string[] = [];
  const facts = {
    hasPushOrAdmin: async () => (asked.push("push"), push),
    installationHasAccess: async () => (asked.push("installation"), installation),
  };
  return { check: plannerEligibility({ credential: () => cred, facts, now: () => NOW }), asked };
}

describe("who may run the Planner in a plan", () => {
  it("refuses without a sign-in or with an expired one, in words, before asking GitHub anything", async () => {
    const signedOut = eligibility(null);
    expect(await signedOut.check(null)).toMatchObject({ code: "unauthorized", message: expect.stringMatching(/Sign in to GitHub/) });
    const expired = eligibility(credential(NOW));
    expect(await expired.check(bound)).toMatchObject({ code: "unauthorized", message: expect.stringMatching(/expired/) });
    expect([...signedOut.asked, ...expired.asked]).toEqual([]);
  });

  it("lets a signed-in person run it in an unbound plan, and in a bound one with push access through a reaching installation", async () => {
    expect(await eligibility(credential(NOW + 1)).check(null)).toBeNull();
    const ok = eligibility(credential());
    expect(await ok.check(bound)).toBeNull();
    expect(ok.asked).toEqual(["push", "installation"]);
  });

  it("refuses a bound plan without push access, without the installation's access, or while GitHub cannot say", async () => {
    expect(await eligibility(credential(), no("no-push-access", "alice has read access")).check(bound)).toMatchObject({ code: "forbidden", message: "alice has read access", details: { reason: "no-push-access" } });
    expect(await eligibility(credential(), yes, no("installation-revoked", "revoked")).check(bound)).toMatchObject({ code: "forbidden", details: { reason: "installation-revoked" } });
    expect(await eligibility(credential(), no("github-unavailable", "down")).check(bound)).toMatchObject({ code: "github-unavailable" });
  });

  it("refuses a repository named by owner and name only: access to it cannot be checked", async () => {
    const named = eligibility(credential());
    expect(await named.check({ owner: "octo-org", name: "planets" })).toMatchObject({ code: "forbidden", message: expect.stringMatching(/choose the repository again/) });
    expect(named.asked).toEqual([]);
  });

  it("lets a configured provider run it in an unbound plan without a sign-in, but not in a bound one; and nothing when off", async () => {
    const configured = plannerEligibility({ credential: () => null, facts: null, providerConfigured: () => true });
    expect(await configured(null)).toBeNull();
    expect(await configured(bound)).toMatchObject({ code: "unauthorized" });
    const off = plannerEligibility({ credential: () => credential(), facts: null, providerConfigured: () => true, plannerOff: () => true });
    expect(await off(null)).toMatchObject({ code: "not-configured", message: expect.stringMatching(/turned off/) });
  });

  it("refuses everything when GitHub sign-in is not set up here", async () => {
    expect(await plannerEligibility({ credential: () => credential(), facts: null })(null)).toMatchObject({ code: "unauthorized" });
  });
});
