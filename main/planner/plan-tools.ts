/**
 * The Planner's plan tools (issue #26): read_plan gives the channel's plan as `{revision, markdown, blocks}`; edit_plan
 * applies 1 to MAX_PLAN_EDIT_OPERATIONS block operations all or nothing (plan-edit.ts) and publishes the result as the
 * Planner's fenced write, attributed to the Planner (its own actor, an agent change message). Both are fixed to the
 * channel's own plan: nothing the model passes can point them at another document.
 *
 * What must stay true: a stale revision or a changed block refuses the whole batch and answers the current revision
 * and blocks, so the model can read what changed and try again; an archived plan takes no edit; an edit that would
 * change nothing writes nothing; a refused fenced write is reported to the model as not made.
 */
import { z } from "zod";
import { planBlockSpans, planBlocks, type PlanBlock } from "./plan-blocks.js";
import { applyPlanEdit, editPlanInputSchema } from "./plan-edit.js";
import type { PlannerTool } from "./copilot-runtime.js";

export interface PlanContent {
  markdown: string;
  revision: string;
  archived: boolean;
}

export interface PlanToolsDeps {
  /** The channel's plan as this replica holds it now. */
  content(): Promise<PlanContent>;
  /**
   * Publishes `markdown` as the plan's new body through the fenced write path; resolves once this replica holds the
   * accepted change, with the plan then, or with the reason it was refused.
   */
  publish(markdown: string): Promise<{ ok: true; content: PlanContent } | { ok: false; reason: string }>;
}

type Refusal = { ok: false; refusal: string; message: string; revision: string; blocks: PlanBlock[] };

const current = (content: PlanContent, refusal: string, message: string): Refusal => ({ ok: false, refusal, message, revision: content.revision, blocks: planBlocks(content.markdown) });

export function planTools(deps: PlanToolsDeps): PlannerTool<never>[] {
  const readPlan: PlannerTool<Record<string, never>> = {
    name: "read_plan",
    description: "Read this channel's plan: its revision, its Markdown, and its top-level blocks (index, digest, kind, markdown) as edit_plan names them.",
    parameters: z.object({}).strict(),
    handler: async () => {
      const content = await deps.content();
      return { revision: content.revision, markdown: content.markdown, blocks: planBlocks(content.markdown) };
    },
  };
  const editPlan: PlannerTool<z.infer<typeof editPlanInputSchema>> = {
    name: "edit_plan",
    description:
      "Edit this channel's plan by its top-level blocks, all operations or none: insert (after a block, or null for the start), replace, move (after a block, or null), delete; each block named by the index and digest read_plan gave. A stale revision or a changed block refuses the whole edit and answers the current revision and blocks.",
    parameters: editPlanInputSchema,
    handler: async (args) => {
      const parsed = editPlanInputSchema.safeParse(args);
      const content = await deps.content();
      if (!parsed.success) return current(content, "invalid-input", parsed.error.issues.map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`).join("; "));
      if (content.archived) return current(content, "document-archived", "The plan is archived; it takes no edits until it is restored.");
      if (parsed.data.revision !== content.revision) return current(content, "stale-revision", "The plan changed since that revision: read it again (its current revision and blocks are here).");
      const result = applyPlanEdit(content.markdown, planBlockSpans(content.markdown), parsed.data.operations);
      if (!result.ok) return current(content, result.refusal, result.message);
      if (result.markdown === content.markdown) return { ok: true, revision: content.revision, blocks: planBlocks(content.markdown) };
      const published = await deps.publish(result.markdown);
      if (!published.ok) return current(await deps.content(), "refused", `The edit was not made: ${published.reason}`);
      return { ok: true, revision: published.content.revision, blocks: planBlocks(published.content.markdown) };
    },
  };
  return [readPlan, editPlan] as PlannerTool<never>[];
}
