/**
 * The fixed list of tools a profile may allow (shared/schema/agent-profiles.ts) names the Planner's plan tools and every
 * repository tool by its registry name: a tool renamed or added there fails here until the list follows.
 */
import { describe, expect, it } from "vitest";
import { AGENT_TOOL_NAMES } from "../../shared/schema/agent-profiles.js";
import { REPOSITORY_TOOLS } from "../github/repository-tools/index.js";
import { planTools } from "../planner/plan-tools.js";

describe("the tools a profile may allow", () => {
  it("name every repository tool and the plan tools, each once", () => {
    const plan = planTools({} as never).map((tool) => tool.name);
    expect(plan).toEqual(["read_plan", "edit_plan"]);
    for (const name of [...plan, ...REPOSITORY_TOOLS.names]) expect(AGENT_TOOL_NAMES).toContain(name);
    expect(new Set(AGENT_TOOL_NAMES).size).toBe(AGENT_TOOL_NAMES.length);
    // read_reference is the Planner's reference reader, listed ahead of its arrival (issue #26).
    expect(AGENT_TOOL_NAMES.filter((name) => ![...plan, ...REPOSITORY_TOOLS.names].includes(name))).toEqual(["read_reference"]);
  });
});
