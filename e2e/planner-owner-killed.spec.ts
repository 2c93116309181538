/**
 * The Planner's owner killed (issue #25): two host-mode cores, each its own process, admitted by a relay process and
 * signed in to the fake GitHub (another process). Alice's app takes the Planner in a shared plan and Bob's app sees
 * "alice"; Alice's process gets SIGKILL (no release, no goodbye): the relay's clock alone ends her lease
 * (PLANNER_LEASE_TTL_MS), Bob's app hears it, and Bob's message to the Planner makes his app the owner under
 * generation 2. Alice was killed mid-turn: her turn stays marked begun under generation 1 and is never run again, by
 * anyone; Bob's app runs only his message.
 */
import { expect, test } from "@playwright/test";
import { PLANNER_LEASE_TTL_MS } from "../shared/limits.js";
import { connectFakeGitHub } from "../test-support/fake-github/control.js";
import { defaultFixtures } from "../test-support/fake-github/fixtures.js";
import { connectCoreApi, type CoreApiClient } from "./support/core-api-client.js";
import { startFakeGitHubProcess, type FakeGitHubProcess } from "./support/fake-github.js";
import { startCore, stopAll, tempDir } from "./support/processes.js";
import { addRelayUser, startRelayProcess } from "./support/relay.js";
import { freePort } from "./support/tcp-proxy.js";
import { startPlannerModel, type PlannerModel } from "./support/planner-model.js";

let fake: FakeGitHubProcess | undefined;
let model: PlannerModel | undefined;
const clients: CoreApiClient[] = [];
test.afterAll(async () => {
  for (const client of clients) client.close();
  await stopAll();
  await fake?.stop();
  await model?.fake.close();
});

test("the owner's app killed loses the Planner when its lease expires at the relay, and the next claim is generation 2", async () => {
  test.setTimeout(180_000);
  fake = await startFakeGitHubProcess();
  // The Planner's turns never end here (the model never answers): messages to it keep waiting, so ownership alone is
  // what the test watches.
  model = await startPlannerModel({ hang: true });
  const github = ["--github-client-id", defaultFixtures().clientId, "--github-api-url", fake.url, "--github-web-url", fake.url, ...model.args];
  const relayDir = tempDir("killed-relay");
  const port = await freePort();
  const [tokenA, tokenB] = [await addRelayUser(relayDir, "alice"), await addRelayUser(relayDir, "bob")];
  await startRelayProcess(relayDir, port);
  const [coreA, coreB] = await Promise.all([
    startCore(tempDir("killed-a"), ["--relay", `ws://127.0.0.1:${port}`, "--relay-token", tokenA, ...github], model.env),
    startCore(tempDir("killed-b"), ["--relay", `ws://127.0.0.1:${port}`, "--relay-token", tokenB, ...github], model.env),
  ]);
  const [alice, bob] = [await connectCoreApi(coreA.ready), await connectCoreApi(coreB.ready)];
  clients.push(alice, bob);
  for (const [client, login] of [[alice, "alice"], [bob, "bob"]] as const) {
    const { deviceFlow } = await client.api.startSignIn();
    await connectFakeGitHub(fake.url).approveDevice(deviceFlow!.userCode, login);
    await expect.poll(async () => (await client.api.getAuthState()).state, { timeout: 30_000 }).toBe("signed-in");
    await expect.poll(async () => (await client.api.getSyncStatus()).state, { timeout: 30_000 }).toBe("connected");
  }

  const plan = await alice.api.createDocument({ title: "Owned", shared: true });
  await expect.poll(async () => (await bob.api.listDocuments()).some((d) => d.id === plan.id && !d.arriving), { timeout: 30_000 }).toBe(true);
  await bob.api.getPlannerState(plan.id);
  const asked = await alice.api.postMessage(plan.id, { text: "@Planner start", to: "planner", clientRequestId: "a-1" });
  const turnsOf = async (turnId: string) => (await bob.api.readConversation(plan.id)).entries.filter((e) => e.turn?.id === turnId).map((e) => [e.turn!.state, e.turn!.ownershipGeneration]);
  await expect.poll(async () => (await alice.api.getPlannerState(plan.id)).ownedHere, { timeout: 30_000 }).toBe(true);
  await expect.poll(async () => (await bob.api.getPlannerState(plan.id)).owner?.user, { timeout: 30_000 }).toBe("alice");
  expect(await bob.api.getPlannerState(plan.id)).toMatchObject({ state: "running-elsewhere", ownershipGeneration: 1 });
  // Mid-turn: Alice's app began the turn (its mark reached Bob) and is waiting on the model.
  await expect.poll(() => turnsOf(asked.entry.id), { timeout: 30_000 }).toEqual([["started", 1]]);

  await coreA.stop("SIGKILL");
  // Alice's message waits, but her app is gone; nobody else's waits, so nobody claims until Bob asks.
  await expect.poll(async () => (await bob.api.getPlannerState(plan.id)).state, { timeout: PLANNER_LEASE_TTL_MS * 3 }).toBe("unowned");
  expect((await bob.api.getPlannerState(plan.id)).ownershipGeneration).toBe(1);
  await bob.api.postMessage(plan.id, { text: "@Planner over to me", to: "planner", clientRequestId: "b-1" });
  await expect.poll(async () => (await bob.api.getPlannerState(plan.id)).ownedHere, { timeout: 30_000 }).toBe(true);
  expect(await bob.api.getPlannerState(plan.id)).toMatchObject({ state: "running-here", ownershipGeneration: 2, owner: { user: "bob" } });
  // Bob's app runs his message, under generation 2; Alice's interrupted turn is never run again.
  const bobs = (await bob.api.readConversation(plan.id)).entries.find((e) => e.text === "@Planner over to me")!;
  await expect.poll(() => turnsOf(bobs.id), { timeout: 30_000 }).toEqual([["started", 2]]);
  expect(await turnsOf(asked.entry.id)).toEqual([["started", 1]]);
});
