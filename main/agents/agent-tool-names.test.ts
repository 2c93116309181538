/**
 * The fixed list of tools a profile may allow (shared/schema/agent-profiles.ts) is exactly the Planner's tools by their
 * registry names: its plan tools, its reference reader and every repository tool. A tool renamed, added or removed
 * there fails here until the list follows.
 */
import { describe, expect, it } from "vitest";
import { AGENT_TOOL_NAMES } from "../../shared/schema/agent-profiles.js";
import { REPOSITORY_TOOLS } from "../github/repository-tools/index.js";
import { planTools } from "../planner/plan-tools.js";
import { referenceTool } from "../planner/reference-tool.js";

describe("the tools a profile may allow", () => {
  it("are the plan tools, read_reference and every repository tool, each once", () => {
    const plannerTools = [...planTools({} as never).map((tool) => tool.name), referenceTool({} as never).name, ...REPOSITORY_TOOLS.names];
    expect([...AGENT_TOOL_NAMES].sort()).toEqual([...plannerTools].sort());
    expect(new Set(AGENT_TOOL_NAMES).size).toBe(AGENT_TOOL_NAMES.length);
  });
});
