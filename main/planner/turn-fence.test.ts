/**
 * The turn fence's rule on its own (turn-fence.ts): a moved session generation refuses everything, the stop record
 * included; a stop refuses everything but the stop record; the refusal names its check and who stopped the turn.
 */
import { describe, expect, it } from "vitest";
import { turnFenceRefusal, type TurnFenceReplica } from "./turn-fence.js";

const replica = (generation: number, stoppedBy: string | null): TurnFenceReplica => ({
  sessionGeneration: async () => generation,
  abortRequestedBy: async (_planId, turnId) => (turnId === "m-1" ? stoppedBy : null),
});

describe("the turn fence", () => {
  it("lets a live turn of the current session write", async () => {
    expect(await turnFenceRefusal(replica(2, null), "plan", { turnId: "m-1", sessionGeneration: 2 })).toBeNull();
  });

  it("refuses a stopped turn's output, naming who stopped it, yet lets its stop record through", async () => {
    expect(await turnFenceRefusal(replica(2, "Ada"), "plan", { turnId: "m-1", sessionGeneration: 2 })).toEqual({ check: "turn-stopped", reason: expect.stringMatching(/^Ada stopped this turn/), stoppedBy: "Ada" });
    expect(await turnFenceRefusal(replica(2, "Ada"), "plan", { turnId: "m-1", sessionGeneration: 2, stopRecord: true })).toBeNull();
    // Another turn's stop is not this one's.
    expect(await turnFenceRefusal(replica(2, "Ada"), "plan", { turnId: "m-2", sessionGeneration: 2 })).toBeNull();
  });

  it("refuses everything of a turn once the session generation moved on, the stop record too", async () => {
    for (const fence of [{ turnId: "m-1", sessionGeneration: 1 }, { turnId: "m-1", sessionGeneration: 1, stopRecord: true as const }]) {
      expect(await turnFenceRefusal(replica(2, "Ada"), "plan", fence)).toMatchObject({ check: "session-generation", reason: expect.stringMatching(/generation 1; .* 2 now/) });
    }
  });
});
