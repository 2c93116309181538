/**
 * The turn fence (issue #27, the seed's "generation fences"): whatever a Planner or agent turn writes (its entries, its
 * plan edits, a handed-off document) is refused once the turn was stopped or once the conversation's session
 * generation moved past the one the turn started under (a `/new` or a reset processed meanwhile, by this app or by
 * another of the person's apps after an ownership change). The ownership generation is the keeper's fence
 * (fenced-writer.ts); this one is asked where each write is prepared and by the permission gate before each tool call,
 * against this replica of the conversation, not against what the turn runner remembers.
 *
 * What must stay true: the answer comes from the replica (a stop is the person's `abortTurn` entry, the generation the
 * highest any entry records), so a stop that reached this replica by any path is seen; a stopped turn may still write
 * its one stop record (a `stopRecord` fence: no model output in it, only who stopped it), never anything else; a moved
 * session generation refuses everything, the stop record included.
 */

/** What a turn's write is fenced by: the message it answers and the session generation it started under. */
export interface TurnFence {
  turnId: string;
  sessionGeneration: number;
  /** The ownership generation the turn began under: its writes are prepared under it (fenced-writer.ts), or refused. */
  ownershipGeneration?: number;
  /** The runner's record that the turn was stopped (who stopped it, nothing of the model's): allowed after a stop. */
  stopRecord?: true;
}

export type TurnFenceCheck = "turn-stopped" | "session-generation";

export type TurnFenceRefusal = { check: TurnFenceCheck; reason: string; stoppedBy?: string };

/** What the fence reads of the conversation's replica. */
export interface TurnFenceReplica {
  /** Who asked to stop the turn for message `turnId`, if anyone did. */
  abortRequestedBy(planId: string, turnId: string): Promise<string | null>;
  /** The highest session generation an entry of the conversation records. */
  sessionGeneration(planId: string): Promise<number>;
}

/** Why a write under `fence` must not be made now, or null when it may. */
export async function turnFenceRefusal(replica: TurnFenceReplica, planId: string, fence: TurnFence): Promise<TurnFenceRefusal | null> {
  const now = await replica.sessionGeneration(planId);
  if (now !== fence.sessionGeneration) {
    return {
      check: "session-generation",
      reason: `The turn began in session generation ${fence.sessionGeneration}; the conversation is in ${now} now (a new session began), so nothing of that turn is written.`,
    };
  }
  if (fence.stopRecord) return null;
  const stoppedBy = await replica.abortRequestedBy(planId, fence.turnId);
  return stoppedBy === null ? null : { check: "turn-stopped", reason: `${stoppedBy} stopped this turn, so nothing more of it is written.`, stoppedBy };
}
