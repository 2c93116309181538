/**
 * A plan handoff (issue #27): from an agent chat, a new plan is made with the chat's drafted plan, a title and a
 * brief, by the agent (its tool `hand_off_plan`) or by the person (the chat's Hand off action). One schema checks both
 * inputs, and one rule says what the new plan holds and what the chat's card says, so the core, the tool and the
 * window's double agree.
 *
 * What must stay true: a title is one visible line of at most MAX_TITLE_CHARS (a plan's title); a brief is at most
 * MAX_HANDOFF_BRIEF_BYTES of UTF-8 and not empty; the new plan's Markdown is the brief, a blank line, then the chat
 * plan's Markdown as it was when the plan was made (the chat's own plan stays as it is).
 */
import { z } from "zod";
import { MAX_HANDOFF_BRIEF_BYTES, MAX_TITLE_CHARS } from "./limits.js";
import { utf8Bytes } from "./utf8.js";

/** The agent's tool, by the name profiles allow it under (shared/schema/agent-profiles.ts AGENT_TOOL_NAMES). */
export const HAND_OFF_PLAN_TOOL = "hand_off_plan";

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
const BRIEF_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
const LONE_SURROGATE = /\p{Surrogate}/u;

export const handoffTitleSchema = z
  .string({ error: "title: the new plan's title is text." })
  .transform((title) => title.trim())
  .pipe(
    z
      .string()
      .min(1, "title: the new plan needs a title.")
      .max(MAX_TITLE_CHARS, `title: at most ${MAX_TITLE_CHARS} characters.`)
      .refine((title) => !CONTROL.test(title) && !LONE_SURROGATE.test(title), "title: one line of plain characters (no control or direction override characters)."),
  );

export const handoffBriefSchema = z
  .string({ error: "brief: the brief is Markdown text." })
  .transform((brief) => brief.trim())
  .pipe(
    z
      .string()
      .min(1, "brief: say in a few lines what the plan is for and what is settled.")
      .refine((brief) => utf8Bytes(brief) <= MAX_HANDOFF_BRIEF_BYTES, `brief: at most ${MAX_HANDOFF_BRIEF_BYTES} bytes of UTF-8.`)
      .refine((brief) => !BRIEF_CONTROL.test(brief) && !LONE_SURROGATE.test(brief), "brief: cannot contain control or direction override characters."),
  );

export const handoffInputSchema = z.object({ title: handoffTitleSchema, brief: handoffBriefSchema }).strict();
export type HandoffInput = z.infer<typeof handoffInputSchema>;

/** The new plan's Markdown: the brief, then the chat's drafted plan as it is now. */
export function handoffMarkdown(brief: string, planMarkdown: string): string {
  const plan = planMarkdown.trim();
  return plan === "" ? `${brief}\n` : `${brief}\n\n${plan}\n`;
}

/** The words of the chat's card (its link and title are the entry's `handoff`). */
export function handoffCardText(title: string): string {
  return `Handed off the plan as a new plan: ${title}`;
}
