/**
 * Which agent profiles apply, and what the service does around them: nothing opened or written while agent chat is
 * off; this device's profiles without a relay, the team's with one (and only the Planner, no writes, while the team is
 * not known yet); profiles never carried from one scope to another; a document held in storage opened, not begun
 * again; "agents-changed" for every change and scope switch while on; the Planner's lost record written afresh; a
 * newer app's document read but not written.
 */
import { describe, expect, it } from "vitest";
import { AGENT_PROFILES_SCHEMA_VERSION, PLANNER_AGENT_ID } from "../../shared/schema/agent-profiles.js";
import { waitFor } from "../../shared/wait-for.js";
import { agentProfilesIdOf } from "./agent-profiles-identity.js";
import { profilesReplica } from "./agent-profiles-test-support.js";

const device = { kind: "device" as const, deviceId: "device-a" };
const team = { kind: "team" as const, teamIndexId: "team-index-1" };

describe("the agent profiles that apply", () => {
  it("refuse every call while agent chat is off, opening and writing nothing", async () => {
    const { profiles, repo, chat, said, storage } = profilesReplica();
    chat.on = false;
    profiles.switched();
    for (const call of [() => profiles.list(), () => profiles.create({ name: "A" }), () => profiles.update(PLANNER_AGENT_ID, {}), () => profiles.remove("x")]) {
      await expect(call()).rejects.toMatchObject({ code: "agent-chat-disabled" });
    }
    expect(Object.keys(repo.handles)).toEqual([]);
    expect([...storage.data.keys()].filter((key) => key.startsWith(agentProfilesIdOf(device)))).toEqual([]);
    expect(said).toEqual([]);
  });

  it("are this device's without a relay, the team's with one, and none is carried from one to the other", async () => {
    const { profiles, said } = profilesReplica();
    await profiles.create({ name: "Mine" });
    expect(await profiles.list()).toMatchObject({ scope: "device", agents: [{ id: PLANNER_AGENT_ID }, { name: "Mine" }] });
    expect(profiles.isTeamDocument(agentProfilesIdOf(device))).toBe(false);

    said.length = 0;
    profiles.setRelay("ws://relay.test");
    // The relay is set, its team not learnt yet: only the Planner, and nothing can be written anywhere.
    expect(await profiles.list()).toEqual({ scope: "team", teamPending: true, agents: [expect.objectContaining({ id: PLANNER_AGENT_ID })], unreadable: 0 });
    await expect(profiles.create({ name: "Lost" })).rejects.toMatchObject({ code: "relay-unavailable" });
    await waitFor(() => said.some((list) => list.teamPending), "the pending team said");

    profiles.setTeam(team.teamIndexId);
    expect(profiles.isTeamDocument(agentProfilesIdOf(team))).toBe(true);
    expect(profiles.isTeamDocument(agentProfilesIdOf(device))).toBe(false);
    expect(await profiles.list()).toMatchObject({ scope: "team", teamPending: false, agents: [{ id: PLANNER_AGENT_ID }] });
    await waitFor(() => said.at(-1)?.scope === "team" && !said.at(-1)?.teamPending, "the team's profiles said");
    await profiles.create({ name: "Ours" });

    // Another relay: its team is not this one; its document stops being shared at once.
    profiles.setRelay("ws://other.test");
    expect(profiles.isTeamDocument(agentProfilesIdOf(team))).toBe(false);
    profiles.setRelay(null);
    expect((await profiles.list()).agents.map((a) => a.name)).toEqual(["Planner", "Mine"]);
    profiles.setRelay("ws://relay.test");
    profiles.setTeam(team.teamIndexId);
    expect((await profiles.list()).agents.map((a) => a.name)).toEqual(["Planner", "Ours"]);
  });

  it("say every change of the current document while on, and nothing while off", async () => {
    const replica = profilesReplica();
    const made = await replica.profiles.create({ name: "Scout" });
    await waitFor(() => replica.said.some((list) => list.agents.some((a) => a.id === made.id)), "the new profile said");
    replica.chat.on = false;
    const before = replica.said.length;
    replica.handle(device).change((doc) => {
      doc.profiles[made.id]!.color = "red";
    });
    expect(replica.said.length).toBe(before);
    replica.chat.on = true;
    replica.handle(device).change((doc) => {
      doc.profiles[made.id]!.color = "green";
    });
    expect(replica.said.at(-1)?.agents.find((a) => a.id === made.id)).toMatchObject({ color: "green" });
  });

  it("open a document held in storage from it, never begin it again over it", async () => {
    const first = profilesReplica("device-a");
    const made = await first.profiles.create({ name: "Kept" });
    await first.repo.shutdown();
    const again = profilesReplica("device-a", first.storage);
    expect((await again.profiles.list()).agents.map((a) => a.id)).toEqual([PLANNER_AGENT_ID, made.id]);
  });

  it("write the Planner's lost record afresh when it is changed, and refuse to rename or remove it", async () => {
    const { profiles, handle } = profilesReplica();
    await profiles.list();
    handle(device).change((doc) => {
      delete doc.profiles[PLANNER_AGENT_ID];
    });
    expect((await profiles.list()).agents[0]).toMatchObject({ id: PLANNER_AGENT_ID, name: "Planner", builtIn: true });
    expect(await profiles.update(PLANNER_AGENT_ID, { instructions: "Again." })).toMatchObject({ name: "Planner", instructions: "Again.", color: "purple" });
    await expect(profiles.update(PLANNER_AGENT_ID, { name: "Chief" })).rejects.toMatchObject({ code: "agent-built-in" });
    await expect(profiles.remove(PLANNER_AGENT_ID)).rejects.toMatchObject({ code: "agent-built-in" });
  });

  it("read a newer app's document but refuse to write it", async () => {
    const { profiles, handle } = profilesReplica();
    await profiles.create({ name: "Scout" });
    handle(device).change((doc) => {
      doc.schemaVersion = AGENT_PROFILES_SCHEMA_VERSION + 1;
    });
    expect((await profiles.list()).agents.map((a) => a.name)).toEqual(["Planner", "Scout"]);
    await expect(profiles.create({ name: "Later" })).rejects.toMatchObject({ code: "invalid-document", message: expect.stringMatching(/newer Chopin/) });
  });
});
