/**
 * The seven checks of the Planner's permission gate, each made to deny in turn (issue #26): the first failing one decides
 * and names itself with its reason, the checks after it are not asked, and a plan without a repository (or without a
 * relay) says which checks do not apply.
 */
import { describe, expect, it } from "vitest";
import type { PermissionFact } from "../github/permission-facts.js";
import { checkPermission, PERMISSION_CHECKS, type GateDeps, type GateSession } from "./permission-gate.js";

const NOW = 1_800_000_000_000;
const yes: PermissionFact = { ok: true, checkedAt: NOW };
const no = (reason: "credential-stale" | "no-push-access" | "installation-revoked", message: string): PermissionFact => ({ ok: false, reason, message, checkedAt: NOW });
const bound = { owner: "octo-org", name: "planets", nodeId: "R_1", repositoryId: 11, installationId: 71, defaultBranch: "main" };
const session: GateSession = { channelId: "plan", user: "alice", ownershipGeneration: 3, credentialRevision: 2, turn: { turnId: "m-1", sessionGeneration: 1 } };

function deps(overrides: Partial<GateDeps> = {}, facts: Partial<Record<"credential" | "push" | "installation", PermissionFact>> = {}) {
  const asked: string[] = [];
  const gate: GateDeps = {
    admitted: () => (asked.push("admission"), { ok: true }),
    currentUser: () => (asked.push("user"), "Alice"),
    owns: () => (asked.push("owns"), 3),
    facts: {
      isCredentialCurrent: () => (asked.push("credential"), facts.credential ?? yes),
      hasPushOrAdmin: async () => (asked.push("push"), facts.push ?? yes),
      installationHasAccess: async () => (asked.push("installation"), facts.installation ?? yes),
    },
    repository: async () => bound,
    turnFence: async () => (asked.push("turn"), null),
    ...overrides,
  };
  return { gate, asked };
}

describe("the Planner's permission gate", () => {
  it("allows when all seven checks pass, asked in order", async () => {
    const { gate, asked } = deps();
    const decision = await checkPermission(gate, session);
    expect(decision.allowed).toBe(true);
    expect(decision.checks.map((c) => c.check)).toEqual([...PERMISSION_CHECKS]);
    expect(decision.checks.every((c) => c.outcome === "passed")).toBe(true);
    expect(asked).toEqual(["admission", "user", "owns", "turn", "credential", "push", "installation"]);
  });

  const denials: [string, () => ReturnType<typeof deps>, string, RegExp][] = [
    ["instance admission", () => deps({ admitted: () => ({ ok: false, reason: "The relay no longer admits alice." }) }), "instance-admission", /no longer admits/],
    ["the owner's session and user", () => deps({ currentUser: () => "bob" }), "owner-session", /made for alice; bob is signed in/],
    ["the ownership generation", () => deps({ owns: () => 4 }), "ownership-generation", /generation 3; .* 4 now/],
    ["a stopped turn", () => deps({ turnFence: async () => ({ check: "turn-stopped", reason: "Ada stopped this turn, so nothing more of it is written." }) }), "turn-fence", /Ada stopped this turn/],
    ["a moved session generation", () => deps({ turnFence: async () => ({ check: "session-generation", reason: "The turn began in session generation 1; the conversation is in 2 now" }) }), "turn-fence", /generation 1; .* 2 now/],
    ["the credential revision", () => deps({}, { credential: no("credential-stale", "The session was bound to credential revision 2; the current one is 3.") }), "credential", /revision 2/],
    ["push or admin", () => deps({}, { push: no("no-push-access", "alice has read access to octo-org/planets; push or admin is required.") }), "repository-access", /push or admin/],
    ["the installation's access", () => deps({}, { installation: no("installation-revoked", "The Chopin GitHub App no longer has access to the bound repository.") }), "installation-access", /no longer has access/],
  ];
  for (const [what, make, check, reason] of denials) {
    it(`denies on ${what}, naming the check, and asks nothing after it`, async () => {
      const { gate } = make();
      const decision = await checkPermission(gate, session);
      expect(decision).toMatchObject({ allowed: false, failed: check, reason: expect.stringMatching(reason) });
      const at = PERMISSION_CHECKS.indexOf(check as never);
      expect(decision.checks.map((c) => c.check)).toEqual(PERMISSION_CHECKS.slice(0, at + 1));
    });
  }

  it("denies a call made when no turn of the session runs, without asking the replica", async () => {
    const { gate, asked } = deps();
    expect(await checkPermission(gate, { ...session, turn: null })).toMatchObject({ failed: "turn-fence", reason: expect.stringMatching(/No turn of this session is running/) });
    expect(asked).not.toContain("turn");
  });

  it("denies when nobody is signed in, or this app owns the channel no more", async () => {
    expect(await checkPermission(deps({ currentUser: () => null }).gate, session)).toMatchObject({ failed: "owner-session", reason: expect.stringMatching(/Nobody is signed in/) });
    expect(await checkPermission(deps({ owns: () => null }).gate, session)).toMatchObject({ failed: "ownership-generation", reason: expect.stringMatching(/no longer runs the Planner/) });
  });

  it("says the repository checks do not apply to an unbound plan, nor admission to a private one", async () => {
    const { gate, asked } = deps({ admitted: () => null, repository: async () => null });
    const decision = await checkPermission(gate, session);
    expect(decision.allowed).toBe(true);
    expect(decision.checks.filter((c) => c.outcome === "not-applicable").map((c) => c.check)).toEqual(["instance-admission", "repository-access", "installation-access"]);
    expect(asked).not.toContain("push");
  });

  it("says the credential check does not apply to a session on a configured provider", async () => {
    const { gate, asked } = deps();
    const decision = await checkPermission(gate, { ...session, credentialRevision: null });
    expect(decision.allowed).toBe(true);
    expect(decision.checks.find((c) => c.check === "credential")).toMatchObject({ outcome: "not-applicable" });
    expect(asked).not.toContain("credential");
  });

  it("denies a repository named by owner and name only: access to it cannot be checked", async () => {
    const decision = await checkPermission(deps({ repository: async () => ({ owner: "octo-org", name: "planets" }) }).gate, session);
    expect(decision).toMatchObject({ allowed: false, failed: "repository-access", reason: expect.stringMatching(/cannot be checked/) });
  });
});
