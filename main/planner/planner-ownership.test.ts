/**
 * Planner ownership from the app's side, with real app cores (issue #25): two people signed in to the (in-process) fake
 * GitHub ask the Planner at once in a shared plan through a real relay and exactly one app runs it, both seeing whose;
 * a reset by the other ends it, is recorded in the conversation naming who reset it, and the earliest waiting
 * message's sender's app takes the Planner over (generation 2) without anyone sending again. A private plan's lease is
 * kept by the app itself: taken on the first message to the Planner, released by sign-out, and by a restart, which
 * keeps the generation.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import type { PlannerState } from "../../shared/api.js";
import { waitFor } from "../../shared/wait-for.js";
import { startRelay } from "../../sync-relay/server.js";
import { defaultFixtures } from "../../test-support/fake-github/fixtures.js";
import { startFakeGitHub } from "../../test-support/fake-github/server.js";
import { createAppCore } from "../core/app-core.js";
import type { AppCore } from "../core/types.js";
import { tempDir } from "../sync/test-helpers.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function fakeGitHub() {
  const fixtures = defaultFixtures();
  const fake = await startFakeGitHub({ fixtures });
  cleanups.push(() => fake.close());
  return { fake, fixtures };
}

type GitHub = Awaited<ReturnType<typeof fakeGitHub>>;

async function core(github: GitHub, options: { relayUrl?: string; dataDir?: string } = {}): Promise<{ core: AppCore; dataDir: string }> {
  let dataDir = options.dataDir;
  if (!dataDir) {
    const dir = tempDir("chopin-planner-core-");
    cleanups.push(() => dir.remove());
    dataDir = dir.path;
  }
  const made = await createAppCore({
    dataDir,
    mcpPort: 0,
    ...(options.relayUrl ? { relayUrl: options.relayUrl } : {}),
    githubClientId: github.fixtures.clientId,
    githubApiUrl: github.fake.url,
    githubWebUrl: github.fake.url,
    // Ownership alone: no turn reaches for a model.
    planner: { turns: false },
  });
  cleanups.push(() => made.close());
  return { core: made, dataDir };
}

async function signIn(app: AppCore, github: GitHub, login: string): Promise<void> {
  const { deviceFlow } = await app.api.startSignIn();
  github.fake.state.approveDevice(deviceFlow!.userCode, login);
  await waitFor(async () => (await app.api.getAuthState()).state === "signed-in", `${login} signed in`, 30_000);
}

const planner = (app: AppCore, id: DocumentId) => app.api.getPlannerState(id);
const ownerOf = (state: PlannerState) => state.owner?.user ?? null;

describe("Planner ownership in the app core", () => {
  it("two apps asking at once in a shared plan: one runs the Planner, both see whose; a reset is recorded and the waiting messages' first sender takes over", { timeout: 120_000 }, async () => {
    const github = await fakeGitHub();
    const relayDir = tempDir("chopin-planner-relay-");
    cleanups.push(() => relayDir.remove());
    const relay = await startRelay({ dataDir: relayDir.path, github: { apiUrl: github.fake.url } });
    cleanups.push(() => relay.close());
    const { core: alice } = await core(github, { relayUrl: relay.url });
    const { core: bob } = await core(github, { relayUrl: relay.url });
    await signIn(alice, github, "alice");
    await signIn(bob, github, "bob");
    for (const app of [alice, bob]) await waitFor(async () => (await app.api.getSyncStatus()).state === "connected", "connected", 30_000);

    const plan = await alice.api.createDocument({ title: "Launch", shared: true });
    const id = plan.id as DocumentId;
    await waitFor(async () => (await bob.api.listDocuments()).some((d) => d.id === id && !d.arriving), "Bob has the plan", 30_000);
    expect(await planner(alice, id)).toMatchObject({ state: "unowned", owner: null, ownershipGeneration: 0, keeper: "relay" });
    expect(await planner(bob, id)).toMatchObject({ state: "unowned", keeper: "relay" });

    await Promise.all([
      alice.api.postMessage(id, { text: "@Planner outline the launch", to: "planner", clientRequestId: "a-1" }),
      bob.api.postMessage(id, { text: "@Planner and the risks", to: "planner", clientRequestId: "b-1" }),
    ]);
    await waitFor(async () => {
      const [a, b] = await Promise.all([planner(alice, id), planner(bob, id)]);
      return a.owner !== null && ownerOf(a) === ownerOf(b) && a.ownedHere !== b.ownedHere;
    }, "one owner, seen by both", 30_000);
    const [a1, b1] = await Promise.all([planner(alice, id), planner(bob, id)]);
    expect(a1.ownershipGeneration).toBe(1);
    expect(b1.ownershipGeneration).toBe(1);
    const [owner, other, otherName] = a1.ownedHere ? [alice, bob, "bob"] : [bob, alice, "alice"];
    expect(await planner(owner, id)).toMatchObject({ state: "running-here", owner: { user: ownerOf(a1) } });
    expect(await planner(other, id)).toMatchObject({ state: "running-elsewhere", owner: { user: ownerOf(a1) } });

    // Both messages wait (no Planner answers yet): after the reset, the app of whoever sent the earliest claims again.
    const reset = await other.api.resetPlannerOwnership(id);
    expect(reset.sessionGeneration).toBe(1);
    const recorded = (await other.api.readConversation(id)).entries.find((e) => e.author.kind === "system");
    expect(recorded?.text).toMatch(new RegExp(`^${otherName} reset Planner ownership: ${ownerOf(a1)}'s app \\(ownership generation 1\\)`));
    const firstAsker = (await owner.api.readConversation(id)).entries.find((e) => e.to === "planner")!;
    const firstLogin = firstAsker.author.kind === "person" ? firstAsker.author.login : undefined;
    await waitFor(async () => (await planner(alice, id)).ownershipGeneration === 2 && (await planner(bob, id)).ownershipGeneration === 2, "generation 2 at both", 30_000);
    await waitFor(async () => ownerOf(await planner(alice, id)) === firstLogin && ownerOf(await planner(bob, id)) === firstLogin, "the earliest asker's app runs it", 30_000);
    await waitFor(async () => (await planner(owner, id)).sessionGeneration === 1, "the reset's session boundary reached the owner", 30_000);
  });

  it("a private plan's Planner is this app's: taken by a message to it, released by sign-out and by a restart, the generation kept", { timeout: 120_000 }, async () => {
    const github = await fakeGitHub();
    const first = await core(github);
    await signIn(first.core, github, "alice");
    const plan = await first.core.api.createDocument({ title: "Mine" });
    const id = plan.id as DocumentId;

    await first.core.api.postMessage(id, { text: "@Planner begin", to: "planner", clientRequestId: "p-1" });
    await waitFor(async () => (await planner(first.core, id)).state === "running-here", "running here", 30_000);
    expect(await planner(first.core, id)).toMatchObject({ owner: { user: "alice" }, ownedHere: true, ownershipGeneration: 1, keeper: "this-device" });

    await first.core.api.signOut();
    await waitFor(async () => (await planner(first.core, id)).state === "unowned", "released at sign-out", 30_000);
    expect((await planner(first.core, id)).ownershipGeneration).toBe(1);

    await signIn(first.core, github, "alice");
    await first.core.api.postMessage(id, { text: "@Planner again", to: "planner", clientRequestId: "p-2" });
    await waitFor(async () => (await planner(first.core, id)).ownershipGeneration === 2 && (await planner(first.core, id)).ownedHere, "generation 2", 30_000);

    await first.core.close();
    const second = await core(github, { dataDir: first.dataDir });
    // Not signed in on this run: the earlier run's lease is gone, its generation kept, and nothing is claimed.
    await waitFor(async () => (await planner(second.core, id)).state === "unowned", "the earlier run's lease released", 30_000);
    expect(await planner(second.core, id)).toMatchObject({ owner: null, ownershipGeneration: 2 });
    await second.core.close();

    // Signed in on the next run, the person's messages to the Planner still wait: the app takes it up by itself.
    const third = await core(github, { dataDir: first.dataDir });
    const takenUp = new Promise<PlannerState>((resolve) => third.core.events.on("planner-changed", (state) => state.ownedHere && resolve(state)));
    await signIn(third.core, github, "alice");
    await waitFor(() => Promise.race([takenUp.then(() => true), new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))]), "the waiting message taken up", 30_000);
    expect(await takenUp).toMatchObject({ documentId: id, state: "running-here", ownershipGeneration: 3 });
  });
});
