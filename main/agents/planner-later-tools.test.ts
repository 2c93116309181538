/**
 * A tool added after the profiles document's genesis (hand_off_plan, issue #27) is the Planner's by default without
 * changing the genesis bytes (which every team's members begin the same document from): the genesis is pinned to the
 * bytes it had before the tool existed; the Planner read from it allows the tool; turning it off is kept (written as
 * declined) and turning it on again undoes that; a new profile does not get it.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AGENT_TOOL_NAMES, PLANNER_AGENT_ID } from "../../shared/schema/agent-profiles.js";
import { agentProfilesGenesis } from "./agent-profiles-identity.js";
import { profilesReplica } from "./agent-profiles-test-support.js";

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const without = (name: string) => AGENT_TOOL_NAMES.filter((tool) => tool !== name);

describe("the Planner's tools added after the genesis", () => {
  it("leave the genesis bytes as they were for schema version 1", () => {
    expect(sha(agentProfilesGenesis({ kind: "team", teamIndexId: "t1" }))).toBe("0d39ddfefe5f13bfaac6e09cdef8a5e429c579ce9cde9eec2688a0957b96e4fa");
    expect(sha(agentProfilesGenesis({ kind: "device", deviceId: "device-1" }))).toBe("c1c1f60f17942ff3605e8d17cf9c1f3c1477279867d515701af6c44c1824a4be");
  });

  it("are the Planner's by default, kept off once turned off, and on again once turned on; a new profile has none", async () => {
    const { profiles } = profilesReplica();
    const planner = async () => (await profiles.list()).agents.find((agent) => agent.id === PLANNER_AGENT_ID)!;
    expect((await planner()).tools).toEqual([...AGENT_TOOL_NAMES]);
    expect((await planner()).tools).toContain("hand_off_plan");

    await profiles.update(PLANNER_AGENT_ID, { tools: without("hand_off_plan") });
    expect((await planner()).tools).toEqual(without("hand_off_plan"));
    // Another edit of the Planner keeps it off.
    await profiles.update(PLANNER_AGENT_ID, { color: "red" });
    expect((await planner()).tools).toEqual(without("hand_off_plan"));

    await profiles.update(PLANNER_AGENT_ID, { tools: [...AGENT_TOOL_NAMES] });
    expect((await planner()).tools).toEqual([...AGENT_TOOL_NAMES]);

    const scout = await profiles.create({ name: "Scout" });
    expect(scout.tools).not.toContain("hand_off_plan");
    await profiles.update(scout.id, { tools: ["read_plan", "hand_off_plan"] });
    expect((await profiles.list()).agents.find((agent) => agent.id === scout.id)!.tools).toEqual(["read_plan", "hand_off_plan"]);
  });
});
