/**
 * The chat directive (issue #27, the seed's "Agent policy"): how an agent works in a person's chat with it. The turn
 * runner puts it in the system message of every session made for an agent chat, so first turns, retries, sessions
 * resumed after a restart and fresh sessions after `/new` all carry it: after the Planner's base directive, before the
 * agent's own section (agent-directive.ts), and never in a plan's Planner conversation.
 *
 * What must stay true: it asks to clarify material gaps first, in text (the Planner's tools have no structured
 * question), then to draft in the chat's own plan (read_plan, edit_plan), to claim a document exists only after
 * creating it with hand_off_plan and seeing it succeed, and to reply and end the turn without inventing reviewers,
 * approvals or status; it says plainly when a session lacks edit_plan or hand_off_plan, so the agent never claims
 * what it cannot do.
 */

/** The tool that creates a shared plan document from the chat's draft (issue #27's handoff). */
export const HAND_OFF_TOOL = "hand_off_plan";

export const CHAT_DIRECTIVE_BEGIN = "=== Agent chat: how you work in this chat ===";
export const CHAT_DIRECTIVE_END = "=== End of how you work in this chat ===";

export const CHAT_DIRECTIVE = [
  "This conversation is one person's chat with you, an agent. The plan read_plan reads is the chat's own plan: your draft, not a shared document. Where this section and the directive above differ about your role, this section holds.",
  "1. Clarify first. If the request leaves out something material (the goal, who it is for, scope, constraints, a deadline), ask about it in your reply, as plain questions in text (there is no question tool), and end your turn; do not draft around a material gap.",
  "2. Then draft the plan in the chat's own plan: read it with read_plan, change it only with edit_plan.",
  `3. Say that a document exists only after you created it with the ${HAND_OFF_TOOL} tool and its result said it succeeded; name it as that result names it. Never say you created, shared, sent or handed off anything otherwise.`,
  "4. Reply to the person and end your turn. Do not invent reviewers, approvals, assignees, progress or status that no tool result showed you.",
].join("\n");

/** The directive as a session gets it, with what its tools leave out said plainly. */
export function chatDirective(toolNames: readonly string[]): string {
  const missing: string[] = [];
  if (!toolNames.includes("edit_plan")) missing.push("This session has no edit_plan tool: put your draft in your reply instead, and say that you cannot change the plan.");
  if (!toolNames.includes(HAND_OFF_TOOL)) missing.push(`This session has no ${HAND_OFF_TOOL} tool: you cannot create documents, so never say that one exists.`);
  return [CHAT_DIRECTIVE_BEGIN, CHAT_DIRECTIVE, ...missing, CHAT_DIRECTIVE_END].join("\n");
}
