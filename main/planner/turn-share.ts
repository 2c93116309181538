/**
 * A running Planner turn, shared with the teammates who have the plan's conversation open (issue #26: "the panel
 * shows the running turn" in every window, not only the owner's). The owner's app sends each turn's progress as a
 * passing (ephemeral) message on the conversation: at most every PLANNER_TURN_SHARE_EVERY_MS, the end at once, and
 * bounded (the text's tail, the latest tool calls). Receiving apps accept it only from the app that holds the
 * Planner's lease at the generation the message names (remote-turn.ts).
 *
 * What must stay true: nothing here is stored or synced; the answer itself is the transcript's entry; a turn's last
 * message says `done`, so no window keeps showing a turn that ended.
 */
import type { PlannerTurnProgress } from "../../shared/api.js";
import { PLANNER_TURN_SHARE_EVERY_MS, PLANNER_TURN_SHARE_MAX_NOTE_CHARS, PLANNER_TURN_SHARE_MAX_TEXT_CHARS, PLANNER_TURN_SHARE_MAX_TOOLS } from "../util/limits.js";

export const SHARED_TURN_TYPE = "chopin/planner-turn";

export interface SharedTurnMessage {
  type: typeof SHARED_TURN_TYPE;
  /** The ownership generation the turn runs under: receivers compare it with the lease they know. */
  ownershipGeneration: number;
  /** The sending app's device, as its lease names it. */
  device: string;
  progress: PlannerTurnProgress;
}

/** The progress as sent: the text's last characters, the latest tool calls, short notes. */
export function boundedProgress(progress: PlannerTurnProgress): PlannerTurnProgress {
  const text = progress.text.length > PLANNER_TURN_SHARE_MAX_TEXT_CHARS ? `…${progress.text.slice(-(PLANNER_TURN_SHARE_MAX_TEXT_CHARS - 1))}` : progress.text;
  const tools = progress.tools.slice(-PLANNER_TURN_SHARE_MAX_TOOLS).map((tool) =>
    tool.note !== undefined && tool.note.length > PLANNER_TURN_SHARE_MAX_NOTE_CHARS ? { ...tool, note: `${tool.note.slice(0, PLANNER_TURN_SHARE_MAX_NOTE_CHARS - 1)}…` } : tool,
  );
  return { ...progress, text, tools };
}

export interface TurnShareDeps {
  send(planId: string, message: SharedTurnMessage): void;
  everyMs?: number;
}

/** One sharer for the app: `update` with every progress of a turn this app runs; it sends the latest, paced. */
export function turnSharer(deps: TurnShareDeps) {
  const everyMs = deps.everyMs ?? PLANNER_TURN_SHARE_EVERY_MS;
  /** Per plan: the latest progress not yet sent, and the pacing timer. */
  const pending = new Map<string, { message: SharedTurnMessage | null; timer: NodeJS.Timeout | null }>();
  const flush = (planId: string) => {
    const slot = pending.get(planId);
    if (!slot) return;
    slot.timer = null;
    if (slot.message) {
      const message = slot.message;
      slot.message = null;
      deps.send(planId, message);
      // The next one waits a full interval after this one.
      slot.timer = setTimeout(() => flush(planId), everyMs);
    } else pending.delete(planId);
  };
  return {
    update(progress: PlannerTurnProgress, ownershipGeneration: number, device: string): void {
      const planId = progress.documentId;
      const message: SharedTurnMessage = { type: SHARED_TURN_TYPE, ownershipGeneration, device, progress: boundedProgress(progress) };
      let slot = pending.get(planId);
      if (!slot) pending.set(planId, (slot = { message: null, timer: null }));
      slot.message = message;
      if (progress.done) {
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = null;
        slot.message = null;
        pending.delete(planId);
        deps.send(planId, message);
      } else if (slot.timer === null) flush(planId);
    },
    close(): void {
      for (const slot of pending.values()) if (slot.timer) clearTimeout(slot.timer);
      pending.clear();
    },
  };
}
