/**
 * The fixed list of tools a profile may allow (shared/schema/agent-profiles.ts) is exactly the Planner's tools by their
 * registry names: its plan tools, its reference reader, every repository tool and an agent chat's plan handoff. A
 * tool renamed, added or removed there fails here until the list follows. The mutating ones are what a new profile
 * does not get.
 */
import { describe, expect, it } from "vitest";
import { AGENT_TOOL_NAMES, DEFAULT_AGENT_TOOLS, MUTATING_AGENT_TOOLS } from "../../shared/schema/agent-profiles.js";
import { handoffTool } from "../planner/handoff-tool.js";
import { REPOSITORY_TOOLS } from "../github/repository-tools/index.js";
import { planTools } from "../planner/plan-tools.js";
import { referenceTool } from "../planner/reference-tool.js";

describe("the tools a profile may allow", () => {
  it("are the plan tools, read_reference, every repository tool and hand_off_plan, each once", () => {
    const plannerTools = [...planTools({} as never).map((tool) => tool.name), referenceTool({} as never).name, ...REPOSITORY_TOOLS.names, handoffTool({} as never).name];
    expect([...AGENT_TOOL_NAMES].sort()).toEqual([...plannerTools].sort());
    expect(new Set(AGENT_TOOL_NAMES).size).toBe(AGENT_TOOL_NAMES.length);
  });

  it("a new profile gets every tool but the mutating ones: editing the plan and handing it off", () => {
    expect([...MUTATING_AGENT_TOOLS].sort()).toEqual(["edit_plan", "hand_off_plan"]);
    expect(DEFAULT_AGENT_TOOLS).toEqual(AGENT_TOOL_NAMES.filter((name) => name !== "edit_plan" && name !== "hand_off_plan"));
  });
});
