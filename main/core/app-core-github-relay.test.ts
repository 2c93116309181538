/**
 * Relay admission by GitHub from the app's side: a core signed in to the (in-process) fake GitHub with no relay token
 * connects to a relay configured with the same fake, syncs a shared document with a teammate who uses a relay token,
 * reconnects with the fresh token after a refresh, and disconnects on sign-out.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import { startRelay } from "../../sync-relay/server.js";
import { defaultFixtures } from "../../test-support/fake-github/fixtures.js";
import { startFakeGitHub } from "../../test-support/fake-github/server.js";
import { GITHUB_TOKEN_REFRESH_LEAD_MS } from "../util/limits.js";
import { tempDir } from "../sync/test-helpers.js";
import { createAppCore } from "./app-core.js";
import { waitFor } from "../../shared/wait-for.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe("app core with relay admission by GitHub", () => {
  it("connects with the GitHub user token when no relay token is set, syncs, follows refreshes, and signs out", { timeout: 120_000 }, async () => {
    // Tokens that need a refresh a few seconds after sign-in (refresh runs GITHUB_TOKEN_REFRESH_LEAD_MS early).
    const fixtures = { ...defaultFixtures(), accessTokenLifetimeSeconds: GITHUB_TOKEN_REFRESH_LEAD_MS / 1000 + 8 };
    const fake = await startFakeGitHub({ fixtures });
    cleanups.push(() => fake.close());
    const relayDir = tempDir("chopin-gh-relay-");
    cleanups.push(() => relayDir.remove());
    const relay = await startRelay({ dataDir: relayDir.path, github: { apiUrl: fake.url, allowedOrgs: ["octo-org"] } });
    cleanups.push(() => relay.close());
    const bobToken = relay.users.add("bob").token;

    const [dirA, dirB] = [tempDir("chopin-gh-core-a-"), tempDir("chopin-gh-core-b-")];
    cleanups.push(() => dirA.remove(), () => dirB.remove());
    const a = await createAppCore({
      dataDir: dirA.path,
      mcpPort: 0,
      relayUrl: relay.url,
      githubClientId: fixtures.clientId,
      githubApiUrl: fake.url,
      githubWebUrl: fake.url,
    });
    cleanups.push(() => a.close());
    const b = await createAppCore({ dataDir: dirB.path, mcpPort: 0, relayUrl: relay.url, relayToken: bobToken });
    cleanups.push(() => b.close());

    // A relay address without any credential: nothing connects until the person signs in to GitHub, and the status
    // says what is missing.
    expect(await a.api.getSyncStatus()).toMatchObject({ state: "unauthorized", lastError: { message: expect.stringMatching(/sign in with GitHub/) } });
    const { deviceFlow } = await a.api.startSignIn();
    fake.state.approveDevice(deviceFlow!.userCode, "alice");
    await waitFor(async () => (await a.api.getAuthState()).state === "signed-in", "A signed in to GitHub", 30_000);
    await waitFor(async () => (await a.api.getSyncStatus()).state === "connected", "A connected with its GitHub token", 30_000);
    const issued = () => [...fake.state.tokens.keys()].filter((t) => t.startsWith("ghu_issued_alice_"));
    const firstToken = issued()[0];
    expect(issued()).toHaveLength(1);

    const plan = await a.api.createDocument({ title: "Team plan", markdown: "written by a GitHub sign-in" });
    expect(plan.shared).toBe(true);
    await waitFor(async () => (await b.api.listDocuments()).some((d) => d.id === plan.id), "B lists A's shared document", 30_000);
    const textAtB = async () => ((await b.repo.find<{ text: string }>(plan.id as DocumentId)).doc()?.text ?? "");
    await waitFor(async () => (await textAtB()).includes("written by a GitHub sign-in"), "B holds A's words", 30_000);

    // The refresh issues a new token; the core reconnects with it, so the relay asks GitHub about the fresh one.
    const relayAsksAbout = (token: string) => fake.state.requests.some((r) => r.path === "/user" && r.authorization === `Bearer ${token}`);
    expect(relayAsksAbout(firstToken)).toBe(true);
    await waitFor(async () => (await a.api.getAuthState()).credentialRevision >= 2, "A refreshed its GitHub token", 30_000);
    const fresh = issued().at(-1)!;
    expect(fresh).not.toBe(firstToken);
    await waitFor(() => relayAsksAbout(fresh), "relay verified the refreshed token", 30_000);
    await waitFor(async () => (await a.api.getSyncStatus()).state === "connected", "A connected again", 30_000);
    await a.api.renameDocument(plan.id, "Team plan, after refresh");
    await waitFor(async () => (await b.api.getDocument(plan.id)).title === "Team plan, after refresh", "B sees the rename", 30_000);

    // Signing out of GitHub leaves the relay: no credential, no socket at the relay, and the status says why.
    await a.api.signOut();
    await waitFor(async () => (await a.api.getSyncStatus()).lastError?.message.includes("nothing to sign in") === true, "A without a credential after sign-out", 30_000);
    await waitFor(() => relay.connections() === 1, "only B's socket left at the relay", 30_000);
  });
});
