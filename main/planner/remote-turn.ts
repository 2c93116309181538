/**
 * A teammate's running Planner turn, as this app receives it (turn-share.ts sends it) and passes it to its windows.
 * A passing message claims to be the Planner; it is believed only when it comes from the app that holds the plan's
 * Planner lease, at the generation the lease has now, as this app knows the lease from its keeper (the relay). Anything
 * else, or anything malformed or past the bounds, is dropped without a word: it is a display, never a record.
 *
 * What must stay true: a turn shown here always ends, by its own `done`, or when the lease moves on (the owner's app
 * crashed or was reset): then its windows are told the turn is over, and the transcript says what became of it.
 */
import { z } from "zod";
import type { PlannerTurnProgress } from "../../shared/api.js";
import { deviceOfWirePeer } from "../../shared/relay-user-name.js";
import { PLANNER_TURN_SHARE_MAX_NOTE_CHARS, PLANNER_TURN_SHARE_MAX_TEXT_CHARS, PLANNER_TURN_SHARE_MAX_TOOLS } from "../util/limits.js";
import { SHARED_TURN_TYPE } from "./turn-share.js";

const ID_MAX_CHARS = 200;

const sharedTurnSchema = z.object({
  type: z.literal(SHARED_TURN_TYPE),
  ownershipGeneration: z.number().int().min(1),
  device: z.string().min(1).max(ID_MAX_CHARS),
  progress: z.object({
    documentId: z.string().max(ID_MAX_CHARS),
    turnId: z.string().min(1).max(ID_MAX_CHARS),
    text: z.string().max(PLANNER_TURN_SHARE_MAX_TEXT_CHARS),
    tools: z
      .array(
        z.object({
          id: z.string().max(ID_MAX_CHARS),
          name: z.string().max(ID_MAX_CHARS),
          status: z.enum(["running", "done", "failed", "refused"]),
          note: z.string().max(PLANNER_TURN_SHARE_MAX_NOTE_CHARS).optional(),
        }),
      )
      .max(PLANNER_TURN_SHARE_MAX_TOOLS),
    done: z.boolean(),
  }),
});

/** The plan's lease as this app knows it from its keeper. */
export interface KnownOwner {
  generation: number;
  /** The owner's device (plain, not the wire form); null: nobody holds it. */
  device: string | null;
  /** This app holds it (its own turns reach its windows directly). */
  ownedHere: boolean;
}

export class RemoteTurns {
  /** Per plan, the turn shown in this app's windows now and the generation it ran under. */
  readonly #shown = new Map<string, { turnId: string; generation: number }>();

  /** The progress to show for a passing message, or null when it is not believable. */
  accept(planId: string, senderId: string, raw: unknown, owner: KnownOwner): PlannerTurnProgress | null {
    const parsed = sharedTurnSchema.safeParse(raw);
    if (!parsed.success) return null;
    const { ownershipGeneration, device, progress } = parsed.data;
    if (progress.documentId !== planId || owner.ownedHere || owner.device === null) return null;
    if (ownershipGeneration !== owner.generation || device !== owner.device || deviceOfWirePeer(senderId) !== device) return null;
    const tools = progress.tools.map(({ note, ...tool }) => (note === undefined ? tool : { ...tool, note }));
    const shown: PlannerTurnProgress = { ...progress, tools };
    if (shown.done) this.#shown.delete(planId);
    else this.#shown.set(planId, { turnId: shown.turnId, generation: ownershipGeneration });
    return shown;
  }

  /**
   * The lease of a plan changed: a turn shown under another generation, or whose owner let go, is over (its `done`);
   * null when nothing shown ended.
   */
  leaseChanged(planId: string, generation: number, ownerDevice: string | null): PlannerTurnProgress | null {
    const shown = this.#shown.get(planId);
    if (!shown || (shown.generation === generation && ownerDevice !== null)) return null;
    this.#shown.delete(planId);
    return { documentId: planId, turnId: shown.turnId, text: "", tools: [], done: true };
  }
}
