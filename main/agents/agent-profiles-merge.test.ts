/**
 * Two members edit their team's agent profiles at once, each on their own replica (offline, or before the relay passed
 * the other's change on), then the replicas meet: both new agents are kept; edits of different fields of one profile
 * both stay; tools allowed on either side both count; the same field ends as one of the two values on both; a removal
 * wins over an edit made at the same time; and a malformed profile from a teammate is counted, not shown, while every
 * other profile still lists. Both replicas began the document on their own, from the shared genesis.
 */
import { describe, expect, it } from "vitest";
import { AGENT_TOOL_NAMES, PLANNER_AGENT_ID } from "../../shared/schema/agent-profiles.js";
import { mergeReplicas, profilesReplica, type ProfilesReplica } from "./agent-profiles-test-support.js";

const scope = { kind: "team" as const, teamIndexId: "team-index-1" };

function teamMember(device: string): ProfilesReplica {
  const member = profilesReplica(device);
  member.profiles.setRelay("ws://relay.test");
  member.profiles.setTeam(scope.teamIndexId);
  return member;
}

const names = async (member: ProfilesReplica) => (await member.profiles.list()).agents.map((a) => a.name);

describe("two replicas of a team's agent profiles, edited at once", () => {
  it("keep both new agents, and edits of different fields of one profile (the Planner's included) both", async () => {
    const alice = teamMember("device-alice");
    const bob = teamMember("device-bob");
    const scout = await alice.profiles.create({ name: "Scout", tools: ["read_plan"] });
    mergeReplicas(alice, bob, scope);
    expect(await names(bob)).toEqual(["Planner", "Scout"]);

    // Concurrently: Alice adds Critic and renames Scout; Bob adds Builder, rewrites Scout's instructions and allows
    // another tool. Neither had changed the Planner before: each takes one tool from it, and changes one field.
    await alice.profiles.create({ name: "Critic" });
    await alice.profiles.update(scout.id, { name: "Scout II" });
    await alice.profiles.update(PLANNER_AGENT_ID, { tools: AGENT_TOOL_NAMES.filter((name) => name !== "edit_plan"), color: "red" });
    await bob.profiles.create({ name: "Builder" });
    await bob.profiles.update(scout.id, { instructions: "Find the gaps.", tools: ["read_plan", "search_repository"] });
    await bob.profiles.update(PLANNER_AGENT_ID, { tools: AGENT_TOOL_NAMES.filter((name) => name !== "read_reference"), instructions: "Short answers." });
    mergeReplicas(alice, bob, scope);

    const seen = await alice.profiles.list();
    expect(await bob.profiles.list()).toEqual(seen);
    expect(seen.agents.map((a) => a.name)).toEqual(["Planner", "Builder", "Critic", "Scout II"]);
    expect(seen.agents.find((a) => a.id === scout.id)).toMatchObject({ name: "Scout II", instructions: "Find the gaps.", tools: ["read_plan", "search_repository"] });
    // The Planner's record began at genesis on both sides: one object, its fields merged (not one whole profile winning).
    expect(seen.agents[0]).toMatchObject({ color: "red", instructions: "Short answers.", tools: AGENT_TOOL_NAMES.filter((name) => name !== "edit_plan" && name !== "read_reference") });
    expect(seen.unreadable).toBe(0);
  });

  it("end the same field as one of the two values on both, and a model choice whole", async () => {
    const alice = teamMember("device-alice");
    const bob = teamMember("device-bob");
    const scout = await alice.profiles.create({ name: "Scout" });
    mergeReplicas(alice, bob, scope);
    await alice.profiles.update(scout.id, { instructions: "Alice's words.", model: { kind: "provider", provider: "openai", model: "gpt-a" } });
    await bob.profiles.update(scout.id, { instructions: "Bob's words.", model: { kind: "provider", provider: "anthropic", model: "claude-b" } });
    mergeReplicas(alice, bob, scope);
    const [onAlice, onBob] = [(await alice.profiles.list()).agents[1]!, (await bob.profiles.list()).agents[1]!];
    expect(onAlice).toEqual(onBob);
    expect(["Alice's words.", "Bob's words."]).toContain(onAlice.instructions);
    expect([
      { kind: "provider", provider: "openai", model: "gpt-a" },
      { kind: "provider", provider: "anthropic", model: "claude-b" },
    ]).toContainEqual(onAlice.model);
  });

  it("remove a profile one removed while the other edited it", async () => {
    const alice = teamMember("device-alice");
    const bob = teamMember("device-bob");
    const scout = await alice.profiles.create({ name: "Scout" });
    mergeReplicas(alice, bob, scope);
    await alice.profiles.remove(scout.id);
    await bob.profiles.update(scout.id, { color: "orange", instructions: "Still here?" });
    mergeReplicas(alice, bob, scope);
    expect(await names(alice)).toEqual(["Planner"]);
    expect(await names(bob)).toEqual(["Planner"]);
  });

  it("count a teammate's malformed profile as unreadable, keep it in the document, and list every other one", async () => {
    const alice = teamMember("device-alice");
    const mallory = teamMember("device-mallory");
    await alice.profiles.create({ name: "Scout" });
    // A teammate's app (a newer one, or a broken one) writes what this app cannot read, beside a good profile.
    await mallory.profiles.create({ name: "Fine" });
    mallory.handle(scope).change((doc) => {
      (doc.profiles as Record<string, unknown>)["f00d"] = { id: "f00d", name: 42, color: "ultraviolet", tools: {}, createdAt: 1, updatedAt: 1 };
      (doc.profiles[PLANNER_AGENT_ID]!.tools as Record<string, true>)["future_tool"] = true;
    });
    mergeReplicas(alice, mallory, scope);
    const seen = await alice.profiles.list();
    expect(seen.agents.map((a) => a.name)).toEqual(["Planner", "Fine", "Scout"]);
    expect(seen.unreadable).toBe(1);
    // Alice's edit of the Planner's tools keeps the tool her app does not know; the unreadable profile stays as it was.
    await alice.profiles.update(PLANNER_AGENT_ID, { tools: ["read_plan"] });
    const doc = alice.handle(scope).doc();
    expect(Object.keys(doc.profiles[PLANNER_AGENT_ID]!.tools).sort()).toEqual(["future_tool", "read_plan"]);
    expect(doc.profiles["f00d"]).toMatchObject({ name: 42, color: "ultraviolet" });
    await expect(alice.profiles.update("f00d", { color: "red" })).rejects.toMatchObject({ code: "invalid-document" });
    // It can still be removed (its id is known to whoever wrote it).
    await alice.profiles.remove("f00d");
    expect((await alice.profiles.list()).unreadable).toBe(0);
  });
});
