/**
 * The owner's app killed (issue #25): Alice's core runs as its own process (host mode, main/cli.ts), signs in to the
 * fake GitHub and takes the Planner in a shared plan; Bob's core sees "runs on alice's app". Alice's process gets
 * SIGKILL (no release, no goodbye): the relay's clock alone ends her lease (PLANNER_LEASE_TTL_MS), Bob's app hears it,
 * and Bob's message to the Planner makes his app the owner under generation 2.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import { connectCoreApi } from "../../e2e/support/core-api-client.js";
import { startCore, stopAll, tempDir as e2eTempDir } from "../../e2e/support/processes.js";
import { waitFor } from "../../shared/wait-for.js";
import { PLANNER_LEASE_TTL_MS } from "../../shared/limits.js";
import { startRelay } from "../../sync-relay/server.js";
import { defaultFixtures } from "../../test-support/fake-github/fixtures.js";
import { startFakeGitHub } from "../../test-support/fake-github/server.js";
import { createAppCore } from "../core/app-core.js";
import { tempDir } from "../sync/test-helpers.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
  await stopAll();
});

const WAIT = PLANNER_LEASE_TTL_MS * 3;

describe("the Planner's owner killed", () => {
  it("loses the Planner when its lease expires at the relay, and the next app's claim is generation 2", { timeout: 180_000 }, async () => {
    const fixtures = defaultFixtures();
    const fake = await startFakeGitHub({ fixtures });
    cleanups.push(() => fake.close());
    const relayDir = tempDir("chopin-killed-relay-");
    cleanups.push(() => relayDir.remove());
    const relay = await startRelay({ dataDir: relayDir.path, github: { apiUrl: fake.url } });
    cleanups.push(() => relay.close());
    const github = ["--github-client-id", fixtures.clientId, "--github-api-url", fake.url, "--github-web-url", fake.url];
    const aliceDir = e2eTempDir("chopin-killed-alice-");
    const aliceProcess = await startCore(aliceDir, ["--relay", relay.url, ...github]);
    const alice = await connectCoreApi(aliceProcess.ready);
    cleanups.push(() => alice.close());
    const { deviceFlow } = await alice.api.startSignIn();
    fake.state.approveDevice(deviceFlow!.userCode, "alice");
    await waitFor(async () => (await alice.api.getAuthState()).state === "signed-in" && (await alice.api.getSyncStatus()).state === "connected", "Alice ready", 60_000);

    const bobDir = tempDir("chopin-killed-bob-");
    cleanups.push(() => bobDir.remove());
    const bob = await createAppCore({ dataDir: bobDir.path, mcpPort: 0, relayUrl: relay.url, githubClientId: fixtures.clientId, githubApiUrl: fake.url, githubWebUrl: fake.url });
    cleanups.push(() => bob.close());
    const bobFlow = await bob.api.startSignIn();
    fake.state.approveDevice(bobFlow.deviceFlow!.userCode, "bob");
    await waitFor(async () => (await bob.api.getAuthState()).state === "signed-in" && (await bob.api.getSyncStatus()).state === "connected", "Bob ready", 60_000);

    const plan = await alice.api.createDocument({ title: "Owned", shared: true });
    const id = plan.id as DocumentId;
    await waitFor(async () => (await bob.api.listDocuments()).some((d) => d.id === id && !d.arriving), "Bob has the plan", 60_000);
    await bob.api.getPlannerState(id);
    await alice.api.postMessage(id, { text: "@Planner start", to: "planner", clientRequestId: "a-1" });
    await waitFor(async () => (await alice.api.getPlannerState(id)).ownedHere, "Alice runs the Planner", 60_000);
    await waitFor(async () => (await bob.api.getPlannerState(id)).owner?.user === "alice", "Bob sees Alice's app", 60_000);
    expect(await bob.api.getPlannerState(id)).toMatchObject({ state: "running-elsewhere", ownershipGeneration: 1 });

    alice.close();
    await aliceProcess.stop("SIGKILL");
    // Alice's message was never answered, but her app is gone: nobody else's message waits, so nobody claims yet.
    await waitFor(async () => (await bob.api.getPlannerState(id)).state === "unowned", "the relay ended Alice's lease", WAIT);
    expect((await bob.api.getPlannerState(id)).ownershipGeneration).toBe(1);
    await bob.api.postMessage(id, { text: "@Planner over to me", to: "planner", clientRequestId: "b-1" });
    await waitFor(async () => (await bob.api.getPlannerState(id)).ownedHere, "Bob runs the Planner", 60_000);
    expect(await bob.api.getPlannerState(id)).toMatchObject({ state: "running-here", ownershipGeneration: 2, owner: { user: "bob" } });

  });
});
