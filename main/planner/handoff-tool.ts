/**
 * `hand_off_plan {title, brief}` (issue #27): offered only in an agent chat's sessions (never in a plan's own Planner
 * conversation), and only where the agent's profile allows it; like edit_plan it passes the permission gate before
 * every call. It makes a new plan whose Markdown is the brief then the chat plan's drafted Markdown (the chat's own
 * plan stays), and then writes the chat's card naming that plan as the running turn's fenced write.
 *
 * What must stay true: the same call in the same turn (a retry by the model, or by the runtime) is the same handoff,
 * one plan and one card (the key is the turn and the arguments; the card's id derives from the plan); the card is
 * written only after the plan is stored and listed; a refused creation answers a typed refusal the model reads ({ok: false, error: {code,
 * message}}), and writes no card; outside a running turn nothing is made.
 */
import { z } from "zod";
import { ChopinError } from "../../shared/errors.js";
import { HAND_OFF_PLAN_TOOL, handoffCardText } from "../../shared/plan-handoff.js";
import type { Handoff } from "../../shared/schema/conversation.js";
import type { PlannerTool } from "./copilot-runtime.js";

export interface HandoffToolDeps {
  /** The turn running in the chat now, or null. */
  turn(): { turnId: string; ownershipGeneration: number; sessionGeneration: number } | null;
  /** Makes (or finds, for a retry) the handed-off plan: stored and listed once it resolves; refusals are ChopinErrors. */
  handOff(input: { turnId: string; title: string; brief: string }): Promise<Handoff>;
  /** Writes the card as the turn's fenced write; false when the fence refused it. */
  card(entry: { text: string; handoff: Handoff; clientRequestId: string; ownershipGeneration: number; sessionGeneration: number }): Promise<boolean>;
}

/** Loose on purpose: the handoff's own schema (shared/plan-handoff.ts) refuses in sentences the model can act on. */
const parameters = z.object({
  title: z.string().describe("The new plan's title: one line."),
  brief: z.string().describe("Markdown placed above the drafted plan: what the plan is for, for whom, and what is settled."),
});

/** A refusal in the one tool convention: the model reads the code and the sentence, the transcript a failed call. */
function refused(code: ChopinError["code"], message: string) {
  return { ok: false as const, error: { code, message } };
}

export function handoffTool(deps: HandoffToolDeps): PlannerTool<z.infer<typeof parameters>> {
  return {
    name: HAND_OFF_PLAN_TOOL,
    description:
      "Hand the plan drafted in this chat off as a new shared plan: it is made with this title, the brief above the chat plan's current Markdown, and shown in the chat as a card with a link. Call it once the person agrees the draft is ready; the chat's own plan stays as it is. Say the plan exists only after this succeeds.",
    parameters,
    handler: async (args) => {
      const turn = deps.turn();
      if (!turn) return refused("not-found", "No turn of yours is running in this chat, so nothing was handed off.");
      let made: Handoff;
      try {
        made = await deps.handOff({ turnId: turn.turnId, title: args.title, brief: args.brief });
      } catch (error) {
        const refusal = error instanceof ChopinError ? error : new ChopinError("internal", error instanceof Error ? error.message : String(error));
        return refused(refusal.code, `The plan was not handed off: ${refusal.message}`);
      }
      const written = await deps.card({
        text: handoffCardText(made.title),
        handoff: made,
        clientRequestId: `handoff:${made.documentId}`,
        ownershipGeneration: turn.ownershipGeneration,
        sessionGeneration: turn.sessionGeneration,
      });
      if (!written) {
        return refused("forbidden", `The plan "${made.title}" was made (id ${made.documentId}), but this chat's card naming it was refused: this app no longer runs the chat.`);
      }
      return { ok: true, documentId: made.documentId, title: made.title };
    },
  };
}
