/**
 * Whether a turn the Planner began and has not answered is still running or was interrupted, one rule for the window
 * and for agents (read_conversation): it runs while the app that began it still holds the Planner's lease, at the
 * generation the turn ran under; once the lease moved on or was let go, it was interrupted and is never run again.
 */
import type { ConversationEntryView, PlannerState } from "./api.js";
import type { ConversationEntry } from "./schema/conversation.js";

/** A stored Planner entry's turn as the window and agents see it: the message it answers, how far, its generation. */
export function entryTurn(entry: ConversationEntry): ConversationEntryView["turn"] | undefined {
  return entry.author.kind === "planner" && entry.turnId ? { id: entry.turnId, state: entry.turn ?? "answered", ownershipGeneration: entry.ownershipGeneration ?? 0 } : undefined;
}

export function turnStillRunning(turn: { ownershipGeneration: number }, planner: Pick<PlannerState, "owner" | "ownershipGeneration">): boolean {
  return planner.owner !== null && planner.ownershipGeneration === turn.ownershipGeneration;
}
