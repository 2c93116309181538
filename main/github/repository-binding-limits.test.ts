/**
 * Edge tests for the binding picker's listing caps against the fake GitHub: exactly MAX_GITHUB_INSTALLATIONS_LISTED
 * installations and MAX_GITHUB_INSTALLATION_REPOSITORIES_LISTED repositories come back whole; one more is cut at
 * the cap, and paging stops there rather than fetching what would be discarded.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_GITHUB_INSTALLATION_REPOSITORIES_LISTED, MAX_GITHUB_INSTALLATIONS_LISTED } from "../util/limits.js";
import { buildRepo } from "../../test-support/fake-github/fixtures.js";
import { startFakeGitHub, type FakeGitHub } from "../../test-support/fake-github/server.js";
import { listInstallationRepositories, listInstallations } from "./repository-binding.js";
import { createGitHubRest, type GitHubRest } from "./rest-client.js";

let fake: FakeGitHub;
let rest: GitHubRest;
beforeEach(async () => {
  fake = await startFakeGitHub();
  rest = createGitHubRest({ apiBaseUrl: fake.url, token: () => "ghu_alice" });
});
afterEach(() => fake.close());

/** Gives alice exactly `total` visible installations (the fixtures already show her some). */
function installationsForAlice(total: number): void {
  const visible = fake.state.fixtures.installations.filter((i) => i.users.includes("alice")).length;
  for (let i = 0; i < total - visible; i++) {
    fake.state.fixtures.installations.push({ id: 10_000 + i, account: `org-${i}`, accountType: "Organization", repositoryIds: [], users: ["alice"] });
  }
}

/** An installation visible to alice holding `count` public repositories. */
function installationWithRepos(installationId: number, count: number): void {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const id = 50_000 + i;
    fake.state.fixtures.repos.push(buildRepo({ id, owner: "many-org", name: `repo-${i}`, private: false, history: [] }));
    ids.push(id);
  }
  fake.state.fixtures.installations.push({ id: installationId, account: "many-org", accountType: "Organization", repositoryIds: ids, users: ["alice"] });
}

describe("listing caps of the binding picker", () => {
  it("lists exactly the installation cap in full", async () => {
    installationsForAlice(MAX_GITHUB_INSTALLATIONS_LISTED);
    const listed = await listInstallations(rest);
    expect(listed).toHaveLength(MAX_GITHUB_INSTALLATIONS_LISTED);
    expect(new Set(listed.map((i) => i.id)).size).toBe(MAX_GITHUB_INSTALLATIONS_LISTED);
  });

  it("cuts one installation past the cap", async () => {
    installationsForAlice(MAX_GITHUB_INSTALLATIONS_LISTED + 1);
    const listed = await listInstallations(rest);
    expect(listed).toHaveLength(MAX_GITHUB_INSTALLATIONS_LISTED);
    expect(new Set(listed.map((i) => i.id)).size).toBe(MAX_GITHUB_INSTALLATIONS_LISTED);
  });

  it("lists exactly the installation-repository cap in full", async () => {
    installationWithRepos(900, MAX_GITHUB_INSTALLATION_REPOSITORIES_LISTED);
    const listed = await listInstallationRepositories(rest, 900);
    expect(listed).toHaveLength(MAX_GITHUB_INSTALLATION_REPOSITORIES_LISTED);
    expect(new Set(listed.map((r) => r.nodeId)).size).toBe(MAX_GITHUB_INSTALLATION_REPOSITORIES_LISTED);
    expect(listed.at(-1)?.name).toBe(`repo-${MAX_GITHUB_INSTALLATION_REPOSITORIES_LISTED - 1}`);
  });

  it("cuts one repository past the cap and stops paging at it", async () => {
    installationWithRepos(900, MAX_GITHUB_INSTALLATION_REPOSITORIES_LISTED + 1);
    const before = fake.state.countRequests("/user/installations/900/repositories");
    const listed = await listInstallationRepositories(rest, 900);
    expect(listed).toHaveLength(MAX_GITHUB_INSTALLATION_REPOSITORIES_LISTED);
    expect(listed.map((r) => r.name)).not.toContain(`repo-${MAX_GITHUB_INSTALLATION_REPOSITORIES_LISTED}`);
    // Pages of 100: the cap is reached on the last full page; the page holding the extra repository is never asked for.
    expect(fake.state.countRequests("/user/installations/900/repositories") - before).toBe(Math.ceil(MAX_GITHUB_INSTALLATION_REPOSITORIES_LISTED / 100));
  });
});
