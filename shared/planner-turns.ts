/**
 * Whether a turn the Planner began and has not answered is still running or was interrupted, one rule for the window
 * and for agents (read_conversation): it runs while the app that began it still holds the Planner's lease, at the
 * generation the turn ran under; once the lease moved on or was let go, it was interrupted and is never run again.
 */
import type { PlannerState } from "./api.js";

export function turnStillRunning(turn: { ownershipGeneration: number }, planner: Pick<PlannerState, "owner" | "ownershipGeneration">): boolean {
  return planner.owner !== null && planner.ownershipGeneration === turn.ownershipGeneration;
}
