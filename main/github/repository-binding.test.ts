import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PLANETS } from "../../test-support/fake-github/fixtures.js";
import { startFakeGitHub, type FakeGitHub } from "../../test-support/fake-github/server.js";
import { bindRepository, captureSessionPin, followBinding, listInstallationRepositories, listInstallations } from "./repository-binding.js";
import { createGitHubRest, type GitHubRest } from "./rest-client.js";

let fake: FakeGitHub;
let rest: GitHubRest;
beforeEach(async () => {
  fake = await startFakeGitHub();
  rest = createGitHubRest({ apiBaseUrl: fake.url, token: () => "ghu_alice" });
});
afterEach(() => fake.close());

describe("repository binding", () => {
  it("lists the user's installations and their repositories", async () => {
    expect(await listInstallations(rest)).toEqual([
      { id: 71, account: "octo-org", accountType: "Organization" },
      { id: 73, account: "alice", accountType: "User" },
    ]);
    const repos = await listInstallationRepositories(rest, 71);
    expect(repos).toEqual([{ id: PLANETS.id, nodeId: "R_kgDO00001001", owner: "octo-org", name: "planets", defaultBranch: "main", private: true }]);
  });

  it("binds by node id and follows a rename and transfer by id", async () => {
    const [repo] = await listInstallationRepositories(rest, 71);
    const binding = bindRepository(71, repo);
    expect(binding).toEqual({ nodeId: "R_kgDO00001001", id: PLANETS.id, owner: "octo-org", name: "planets", defaultBranch: "main", installationId: 71 });
    fake.state.renameRepo(PLANETS.id, "new-home", "worlds");
    const followed = await followBinding(rest, binding);
    expect(followed).toMatchObject({ nodeId: binding.nodeId, owner: "new-home", name: "worlds" });
    expect(await captureSessionPin(rest, followed)).toEqual({ commitSha: fake.state.repoById(PLANETS.id)!.branches.main });
  });

  it("refuses to follow when the id now names a different repository", async () => {
    const binding = bindRepository(71, (await listInstallationRepositories(rest, 71))[0]);
    fake.state.repoById(PLANETS.id)!.nodeId = "R_somebody_else";
    await expect(followBinding(rest, binding)).rejects.toMatchObject({ code: "not-found" });
  });

  it("refuses repository shapes that could alter request paths", () => {
    const base = { id: 1, nodeId: "R_x", owner: "o", name: "r", defaultBranch: "main", private: false };
    expect(() => bindRepository(1, { ...base, owner: "../x" })).toThrow();
    expect(() => bindRepository(1, { ...base, name: ".." })).toThrow();
    expect(() => bindRepository(1, { ...base, owner: "a".repeat(40) })).toThrow();
    expect(bindRepository(1, { ...base, owner: "a".repeat(39), name: "n".repeat(100) }).owner).toHaveLength(39);
    expect(() => bindRepository(1, { ...base, name: "n".repeat(101) })).toThrow();
  });
});
