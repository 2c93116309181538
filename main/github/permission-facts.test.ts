import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GITHUB_PERMISSION_FACT_MAX_AGE_MS } from "../util/limits.js";
import { PLANETS } from "../../test-support/fake-github/fixtures.js";
import { startFakeGitHub, type FakeGitHub } from "../../test-support/fake-github/server.js";
import { ManualClock } from "./clock.js";
import type { Credential } from "./credentials.js";
import { createPermissionFacts, type CredentialSource } from "./permission-facts.js";
import type { RepositoryBinding } from "./repository-binding.js";
import { createGitHubRest } from "./rest-client.js";

let fake: FakeGitHub;
let clock: ManualClock;
beforeEach(async () => {
  fake = await startFakeGitHub();
  clock = new ManualClock();
});
afterEach(() => fake.close());

/** A credential holder whose token and revision the test sets directly. */
function holder(login: string, revision = 1, expiresAt: number | null = null) {
  let cred: Credential | null = { accessToken: `ghu_${login}`, revision, expiresAt, identity: { login, id: 0, name: null }, origin: "device-flow" };
  const source: CredentialSource & { set(c: Credential | null): void } = { current: () => cred, set: (c) => (cred = c) };
  return source;
}

function facts(credentials: CredentialSource, policy = { allowedUsers: [] as string[], allowedOrganizations: ["octo-org"] }) {
  const rest = createGitHubRest({ apiBaseUrl: fake.url, token: () => credentials.current()?.accessToken ?? null });
  return createPermissionFacts({ credentials, rest, policy, clock });
}

const planets: RepositoryBinding = { nodeId: "R_kgDO00001001", id: PLANETS.id, owner: "octo-org", name: "planets", defaultBranch: "main", installationId: 71 };

describe("isAdmitted", () => {
  it("admits active org members and allowed users; refuses others with a typed reason", async () => {
    expect((await facts(holder("alice")).isAdmitted()).ok).toBe(true);
    expect(await facts(holder("mallory")).isAdmitted()).toMatchObject({ ok: false, reason: "not-admitted" });
    expect(await facts(holder("carol")).isAdmitted()).toMatchObject({ ok: false, reason: "not-admitted" }); // pending membership
    expect((await facts(holder("mallory"), { allowedUsers: ["MALLORY"], allowedOrganizations: ["octo-org"] }).isAdmitted()).ok).toBe(true);
    expect((await facts(holder("mallory"), { allowedUsers: [], allowedOrganizations: [] }).isAdmitted()).ok).toBe(true);
    expect(await facts(holder("mallory"), { allowedUsers: ["alice"], allowedOrganizations: [] }).isAdmitted()).toMatchObject({ ok: false });
  });

  it("caches for at most the freshness bound: served at bound-1 ms, asked again at the bound", async () => {
    const f = facts(holder("alice"));
    await f.isAdmitted();
    const calls = () => fake.state.countRequests("/user/memberships");
    expect(calls()).toBe(1);
    clock.advance(GITHUB_PERMISSION_FACT_MAX_AGE_MS - 1);
    await f.isAdmitted({ maxAgeMs: 10 * GITHUB_PERMISSION_FACT_MAX_AGE_MS }); // a caller cannot ask for staler answers
    expect(calls()).toBe(1);
    clock.advance(1);
    await f.isAdmitted();
    expect(calls()).toBe(2);
    await f.isAdmitted({ maxAgeMs: 0 });
    expect(calls()).toBe(3);
  });

  it("fails closed on an outage and does not cache the outage", async () => {
    const f = facts(holder("alice"));
    const remove = fake.inject({ kind: "status", status: 503 }, { pathPrefix: "/user/memberships" });
    expect(await f.isAdmitted()).toMatchObject({ ok: false, reason: "github-unavailable" });
    remove();
    expect((await f.isAdmitted()).ok).toBe(true);
    fake.inject({ kind: "rate-limit" }, { pathPrefix: "/user/memberships", times: 1 });
    expect(await f.isAdmitted({ maxAgeMs: 0 })).toMatchObject({ ok: false, reason: "rate-limited" });
  });

  it("never reuses an answer across credential revisions", async () => {
    const h = holder("alice");
    const f = facts(h);
    await f.isAdmitted();
    h.set({ ...h.current()!, accessToken: "ghu_mallory", revision: 2, identity: { login: "mallory", id: 5, name: null } });
    expect(await f.isAdmitted()).toMatchObject({ ok: false, reason: "not-admitted" });
  });

  it("answers signed-out and expired without asking GitHub", async () => {
    const h = holder("alice", 1, clock.now() + 1000);
    const f = facts(h);
    clock.advance(1000);
    expect(await f.isAdmitted()).toMatchObject({ ok: false, reason: "credential-expired" });
    h.set(null);
    expect(await f.isAdmitted()).toMatchObject({ ok: false, reason: "signed-out" });
    expect(fake.state.countRequests("/")).toBe(0);
  });
});

describe("hasPushOrAdmin", () => {
  it("admin, write and maintain may push; read may not", async () => {
    expect((await facts(holder("alice")).hasPushOrAdmin(planets)).ok).toBe(true);
    expect((await facts(holder("bob")).hasPushOrAdmin(planets)).ok).toBe(true);
    expect((await facts(holder("dave")).hasPushOrAdmin(planets)).ok).toBe(true);
    expect(await facts(holder("carol")).hasPushOrAdmin(planets)).toMatchObject({ ok: false, reason: "no-push-access" });
  });

  it("follows a renamed repository by id, and notices a lost permission once the cache ages out", async () => {
    const f = facts(holder("bob"));
    fake.state.renameRepo(PLANETS.id, "moved-org", "planets2");
    expect((await f.hasPushOrAdmin(planets)).ok).toBe(true);
    fake.state.setCollaborator(PLANETS.id, "bob", "read");
    expect((await f.hasPushOrAdmin(planets)).ok).toBe(true); // cached
    clock.advance(GITHUB_PERMISSION_FACT_MAX_AGE_MS);
    expect(await f.hasPushOrAdmin(planets)).toMatchObject({ ok: false, reason: "no-push-access" });
  });

  it("a token GitHub rejects is a credential problem, not a permission answer", async () => {
    const f = facts(holder("alice"));
    fake.state.revokeToken("ghu_alice");
    expect(await f.hasPushOrAdmin(planets)).toMatchObject({ ok: false, reason: "credential-invalid" });
  });
});

describe("installationHasAccess", () => {
  it("is true while the installation lists the repository and revoked when it does not", async () => {
    const f = facts(holder("alice"));
    expect((await f.installationHasAccess(planets)).ok).toBe(true);
    fake.state.setInstallationRepositories(71, []);
    expect(await f.installationHasAccess(planets, { maxAgeMs: 0 })).toMatchObject({ ok: false, reason: "installation-revoked" });
    fake.state.removeInstallation(71);
    expect(await f.installationHasAccess(planets, { maxAgeMs: 0 })).toMatchObject({ ok: false, reason: "installation-revoked" });
  });
});

describe("isCredentialCurrent", () => {
  it("is true for the held revision and says why otherwise", () => {
    const h = holder("alice", 3, clock.now() + 5000);
    const f = facts(h);
    expect(f.isCredentialCurrent(3).ok).toBe(true);
    expect(f.isCredentialCurrent(2)).toMatchObject({ ok: false, reason: "credential-stale" });
    clock.advance(4999);
    expect(f.isCredentialCurrent(3).ok).toBe(true);
    clock.advance(1);
    expect(f.isCredentialCurrent(3)).toMatchObject({ ok: false, reason: "credential-expired" });
    h.set(null);
    expect(f.isCredentialCurrent(3)).toMatchObject({ ok: false, reason: "signed-out" });
  });
});
