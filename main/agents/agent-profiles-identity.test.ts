/**
 * The profiles document's identity: the same id and the same genesis bytes for a scope on every device, different ids
 * for a device and a team (and for two teams), and a genesis that reads as the Planner's profile alone.
 */
import { next as A } from "@automerge/automerge";
import { describe, expect, it } from "vitest";
import { AGENT_PROFILES_SCHEMA_VERSION, PLANNER_AGENT_ID } from "../../shared/schema/agent-profiles.js";
import { agentProfilesGenesis, agentProfilesIdOf } from "./agent-profiles-identity.js";
import { plannerProfile, readProfiles } from "./agent-profiles-read.js";

describe("agent profiles' identity", () => {
  it("derives one id per scope, the same everywhere, never a team's for a device", () => {
    const team = agentProfilesIdOf({ kind: "team", teamIndexId: "2Wbn4tzHzHZUtHKSpGUsFBbnP8hn" });
    expect(agentProfilesIdOf({ kind: "team", teamIndexId: "2Wbn4tzHzHZUtHKSpGUsFBbnP8hn" })).toBe(team);
    expect(agentProfilesIdOf({ kind: "team", teamIndexId: "another" })).not.toBe(team);
    expect(agentProfilesIdOf({ kind: "device", deviceId: "2Wbn4tzHzHZUtHKSpGUsFBbnP8hn" })).not.toBe(team);
  });

  it("begins every replica of a scope from the same bytes, holding only the Planner", () => {
    const scope = { kind: "team" as const, teamIndexId: "t1" };
    const genesis = agentProfilesGenesis(scope);
    expect(agentProfilesGenesis(scope)).toEqual(genesis);
    expect(agentProfilesGenesis({ kind: "team", teamIndexId: "t2" })).not.toEqual(genesis);
    const doc = A.load<Record<string, unknown>>(genesis);
    expect(doc).toMatchObject({ schemaVersion: AGENT_PROFILES_SCHEMA_VERSION, kind: "agent-profiles" });
    expect(readProfiles(doc)).toEqual({ agents: [plannerProfile()], unreadable: 0, ids: new Set([PLANNER_AGENT_ID]) });
  });
});
