import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeGitHub, type FakeGitHub } from "../../test-support/fake-github/server.js";
import { makeFixture, type Fixture } from "../documents/test-fixture.js";
import { ManualClock } from "./clock.js";
import { createGitHubApi, type GitHubApi } from "./github-api.js";
import { GitHubSession } from "./github-session.js";
import { waitFor } from "../../shared/wait-for.js";

let fake: FakeGitHub;
let fx: Fixture;
let session: GitHubSession;
let api: GitHubApi;
let dataDir: string;
const clock = new ManualClock();

beforeEach(async () => {
  fake = await startFakeGitHub();
  fx = await makeFixture();
  dataDir = mkdtempSync(join(tmpdir(), "chopin-gh-api-"));
  session = new GitHubSession({
    config: { clientId: fake.state.fixtures.clientId, apiBaseUrl: fake.url, webBaseUrl: fake.url },
    dataDir,
    clock,
    onState: () => {},
  });
  api = createGitHubApi(session, fx.service);
});
afterEach(async () => {
  session.dispose();
  await fx.close();
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function signIn() {
  const { deviceFlow } = await api.startSignIn();
  fake.state.approveDevice(deviceFlow!.userCode, "alice");
  clock.advance(5000);
  await waitFor(async () => (await api.getAuthState()).state === "signed-in", "(await api.getAuthState()).state === \"signed-in\"");
}

describe("GitHub API methods", () => {
  it("binds a document by node id with owner/name and default branch from GitHub, and unbinds", async () => {
    const { id } = await fx.service.createDocument({ title: "Plan" });
    await expect(api.bindRepository(id, { installationId: 71, repositoryNodeId: "R_kgDO00001001" })).rejects.toMatchObject({ code: "unauthorized" });
    await signIn();
    const bound = await api.bindRepository(id, { installationId: 71, repositoryNodeId: "R_kgDO00001001" });
    expect(bound.repository).toEqual({
      owner: "octo-org",
      name: "planets",
      nodeId: "R_kgDO00001001",
      defaultBranch: "main",
      repositoryId: 1001,
      installationId: 71,
    });
    expect((await fx.service.getDocument(id)).repository).toEqual(bound.repository);

    // Signing out does not touch documents: unbinding and editing need no sign-in.
    await api.signOut();
    const unbound = await api.unbindRepository(id);
    expect(unbound.repository).toBeNull();
    await expect(fx.service.renameDocument(id, "Still editable")).resolves.toMatchObject({ title: "Still editable" });
  });

  it("refuses unknown and archived documents before asking GitHub", async () => {
    await signIn();
    const before = fake.state.countRequests("/user/installations");
    await expect(api.bindRepository("nope", { installationId: 71, repositoryNodeId: "R_kgDO00001001" })).rejects.toMatchObject({ code: "invalid-input" });
    const { id } = await fx.service.createDocument({});
    await fx.service.archiveDocument(id);
    await expect(api.bindRepository(id, { installationId: 71, repositoryNodeId: "R_kgDO00001001" })).rejects.toMatchObject({ code: "document-archived" });
    expect(fake.state.countRequests("/user/installations")).toBe(before);
    // A choice that is not one is refused at the API's boundary, before the document is even looked at.
    await expect(api.bindRepository(id, null as never)).rejects.toMatchObject({ code: "invalid-input", message: "A repository choice must be sent as an object, not null." });
  });

  it("refresh follows a rename and a transfer by repository id, keeping the node id", async () => {
    const { id } = await fx.service.createDocument({ title: "Plan" });
    await signIn();
    await api.bindRepository(id, { installationId: 71, repositoryNodeId: "R_kgDO00001001" });

    fake.state.renameRepo(1001, "octo-org", "worlds");
    fake.state.repoById(1001)!.defaultBranch = "trunk";
    const renamed = await api.refreshRepositoryBinding(id);
    expect(renamed.repository).toEqual({
      owner: "octo-org",
      name: "worlds",
      nodeId: "R_kgDO00001001",
      defaultBranch: "trunk",
      repositoryId: 1001,
      installationId: 71,
    });

    expect(fake.state.countRequests("/repositories/1001")).toBe(1);

    fake.state.renameRepo(1001, "alice", "worlds");
    await api.refreshRepositoryBinding(id);
    expect((await fx.service.getDocument(id)).repository).toMatchObject({ owner: "alice", name: "worlds", nodeId: "R_kgDO00001001", repositoryId: 1001 });
  });

  it("refuses when the id names another repository or none, leaving the binding unchanged", async () => {
    const { id } = await fx.service.createDocument({});
    await signIn();
    const bound = (await api.bindRepository(id, { installationId: 71, repositoryNodeId: "R_kgDO00001001" })).repository;

    fake.state.repoById(1001)!.nodeId = "R_kgDO99999999";
    await expect(api.refreshRepositoryBinding(id)).rejects.toMatchObject({ code: "not-found", details: { nodeId: "R_kgDO00001001" } });
    expect((await fx.service.getDocument(id)).repository).toEqual(bound);

    fake.state.fixtures.repos.splice(fake.state.fixtures.repos.findIndex((r) => r.id === 1001), 1);
    await expect(api.refreshRepositoryBinding(id)).rejects.toMatchObject({ code: "not-found" });
    expect((await fx.service.getDocument(id)).repository).toEqual(bound);
  });

  it("needs sign-in, and leaves owner/name-only bindings as they are without asking GitHub", async () => {
    const { id } = await fx.service.createDocument({});
    await fx.service.setRepository(id, { owner: "octo-org", name: "planets" });
    await expect(api.refreshRepositoryBinding(id)).rejects.toMatchObject({ code: "unauthorized" });
    await signIn();
    const before = fake.state.countRequests("/repositories/");
    expect((await api.refreshRepositoryBinding(id)).repository).toEqual({ owner: "octo-org", name: "planets" });
    expect(fake.state.countRequests("/repositories/")).toBe(before);
  });

  it("refuses sign-in options that are not an object at the API, before asking GitHub anything", async () => {
    for (const [options, kind] of [["stay", "text"], [null, "null"], [[], "a list"], [1, "a number"]] as const) {
      await expect(api.startSignIn(options as never)).rejects.toMatchObject({
        code: "invalid-input",
        message: `Sign-in options must be sent as an object (or left out), not ${kind}.`,
      });
    }
    expect(fake.state.requests).toEqual([]);
    expect(session.state()).toMatchObject({ state: "signed-out" });
  });
});
