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
import type { CoreApiClient } from "./support/core-api-client.js";
import { signIn, startPlannerTeam, type PlannerTeam } from "./support/planner-team.js";
import { stopAll } from "./support/processes.js";

let team: PlannerTeam | undefined;
const clients: CoreApiClient[] = [];
test.afterAll(async () => {
  for (const client of clients) client.close();
  await stopAll();
  await team?.close();
});

test("the owner's app killed loses the Planner when its lease expires at the relay, and the next claim is generation 2", async () => {
  test.setTimeout(180_000);
  // The Planner's turns never end here (the model never answers): Alice's app is mid-turn when it is killed.
  team = await startPlannerTeam("killed");
  const { coreA, coreB } = team;
  const [alice, bob] = [await signIn(team, coreA.ready, "alice"), await signIn(team, coreB.ready, "bob")];
  clients.push(alice, bob);
  for (const client of [alice, bob]) await expect.poll(async () => (await client.api.getSyncStatus()).state, { timeout: 30_000 }).toBe("connected");

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
