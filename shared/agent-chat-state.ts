/**
 * An agent chat's state (issue #27), one rule for the core and the window's double: 'active' from a person's message
 * to the agent until the agent's answer to it is in the transcript (an answer is written as a fenced write and read
 * back, so it is durable wherever it is seen), with no later message still pending; 'waiting' otherwise. A message
 * whose turn was begun and then interrupted (the lease moved on: shared/planner-turns.ts) is not pending: it is never
 * run again, so it cannot keep the chat active; a withdrawn one neither.
 */
import type { ConversationEntryView, PlannerState } from "./api.js";
import { turnStillRunning } from "./planner-turns.js";

export type AgentChatState = "waiting" | "active";

/** What the rule reads of an entry (a view has it; the core builds it from the stored entry without a whole view). */
export type ChatStateEntry = Pick<ConversationEntryView, "id" | "author" | "to" | "withdrawn" | "turn">;

export function agentChatState(entries: readonly ChatStateEntry[], planner: Pick<PlannerState, "owner" | "ownershipGeneration">): AgentChatState {
  const answered = new Set<string>();
  const begun = new Map<string, { ownershipGeneration: number }>();
  for (const entry of entries) {
    if (entry.author.kind !== "planner" || !entry.turn) continue;
    if (entry.turn.state === "answered") answered.add(entry.turn.id);
    else begun.set(entry.turn.id, entry.turn);
  }
  const pending = entries.some((entry) => {
    if (entry.author.kind !== "person" || entry.to !== "planner" || entry.withdrawn || answered.has(entry.id)) return false;
    const turn = begun.get(entry.id);
    return turn === undefined || turnStillRunning(turn, planner);
  });
  return pending ? "active" : "waiting";
}
