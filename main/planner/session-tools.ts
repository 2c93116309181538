/**
 * The tools a new Planner session is given (issue #26): the plan tools always, and for a plan bound to a repository
 * the read-only repository tools of issue #3 (REPOSITORY_TOOLS, under the names MCP knows them by), each running with
 * the one ToolContext pinned when the session was made (repository-pin.ts). Besides the tools: a line for the
 * session's system message telling the model what it can read (or why it cannot), and, when the repository tools are
 * unavailable, a notice for the conversation, so the people see why the Planner cannot read the repository and that
 * `/new` tries again.
 *
 * What must stay true: the session's pin and binding never change while it lives; a repository tool answers in the one
 * tool convention (`{ ok: true, value }` or `{ ok: false, error }`), never a throw; once the plan is bound to another
 * repository or to none, the session's repository tools refuse (the gate, asked before every call, sees the plan's
 * binding now, not the session's); no two tools share a name.
 */
import type { ToolOutcome } from "../util/tool-registry.js";
import { REPOSITORY_TOOLS, type ToolContext } from "../github/repository-tools/index.js";
import type { PlannerTool } from "./copilot-runtime.js";
import { pinRepository, type RepositoryAccess, type RepositoryPinDeps } from "./repository-pin.js";

/** What a session is made with besides its base system message (see the turn runner). */
export interface SessionTools {
  tools: PlannerTool<never>[];
  /** Added to the session's system message: what the repository tools read, or why there are none. */
  systemNote: string | null;
  /** Told in the conversation once, at the session's first turn. */
  notice: string | null;
}

export interface SessionToolsDeps extends RepositoryPinDeps {
  /** The channel's plan tools (read_plan, edit_plan). */
  plan: PlannerTool<never>[];
}

/** The tools of a session made now for the plan `planId`: pins its repository first when it is bound to one. */
export async function sessionTools(planId: string, deps: SessionToolsDeps): Promise<SessionTools> {
  const access = await pinRepository(deps, planId);
  const stillBound = async (nodeId: string) => (await deps.repository(planId).catch(() => null))?.nodeId === nodeId;
  return toolsFor(deps.plan, access, stillBound);
}

/** The session's tools and words for one repository access; pure but for the tools' own calls. */
export function toolsFor(plan: PlannerTool<never>[], access: RepositoryAccess, stillBound: (nodeId: string) => Promise<boolean>): SessionTools {
  if (access.kind === "unbound") return { tools: distinct(plan), systemNote: null, notice: null };
  if (access.kind === "unavailable") {
    return {
      tools: distinct(plan),
      systemNote: `This plan is bound to the GitHub repository ${access.repository}, but no repository tools are available in this session: ${access.reason} If you are asked about the repository, say that you cannot read it now.`,
      notice: `The Planner cannot read ${access.repository} in this session: ${access.reason} Send /new to start a session that tries again.`,
    };
  }
  const { binding, pin } = access.context;
  return {
    tools: distinct([...plan, ...repositoryTools(access.context, () => stillBound(binding.nodeId))]),
    systemNote:
      `This plan is bound to the GitHub repository ${binding.owner}/${binding.name}. The repository tools (${REPOSITORY_TOOLS.names.join(", ")}) read it, read-only, ` +
      `at commit ${pin.commitSha}, the head of its default branch ${binding.defaultBranch} when this session began; they see nothing newer.`,
    notice: null,
  };
}

/** The registry's repository tools as the Planner's tools, each with the session's context. */
function repositoryTools(context: ToolContext, stillBound: () => Promise<boolean>): PlannerTool<never>[] {
  const repository = `${context.binding.owner}/${context.binding.name}`;
  return REPOSITORY_TOOLS.names.map((name) => {
    const tool = REPOSITORY_TOOLS.get(name)!;
    const planned: PlannerTool<unknown> = {
      name,
      description: tool.description,
      parameters: tool.input,
      handler: async (args: unknown): Promise<ToolOutcome<unknown>> => {
        if (!(await stillBound())) {
          return { ok: false, error: { code: "out-of-scope", message: `The plan is no longer bound to ${repository}, which this session's repository tools read; send /new for a session with the plan's repository now.` } };
        }
        return REPOSITORY_TOOLS.run(name, args, context);
      },
    };
    return planned as PlannerTool<never>;
  });
}

function distinct(tools: PlannerTool<never>[]): PlannerTool<never>[] {
  const names = new Set<string>();
  for (const tool of tools) {
    if (names.has(tool.name)) throw new Error(`Two of the Planner's tools are named ${tool.name}.`);
    names.add(tool.name);
  }
  return tools;
}
