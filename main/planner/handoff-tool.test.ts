/**
 * hand_off_plan's own rules (issue #27), with its deps recorded: outside a running turn nothing is made; the card is
 * asked for only after the plan was made, with the turn's generations and an id derived from the plan; a refused
 * creation is answered as a typed refusal and no card is asked for; a refused card says the plan exists.
 */
import { describe, expect, it } from "vitest";
import { ChopinError } from "../../shared/errors.js";
import { handoffTool, type HandoffToolDeps } from "./handoff-tool.js";

const turn = { turnId: "t1", ownershipGeneration: 3, sessionGeneration: 2 };

function recorded(over: Partial<HandoffToolDeps> = {}) {
  const calls: string[] = [];
  const deps: HandoffToolDeps = {
    turn: () => turn,
    handOff: async (input) => {
      calls.push(`handOff ${input.turnId} ${input.title}`);
      return { documentId: "doc-1" as never, title: input.title };
    },
    card: async (entry) => {
      calls.push(`card ${entry.clientRequestId} ${entry.ownershipGeneration}/${entry.sessionGeneration}`);
      return true;
    },
    ...over,
  };
  return { calls, tool: handoffTool(deps) };
}

describe("hand_off_plan", () => {
  it("makes the plan, then its card as the running turn's", async () => {
    const { calls, tool } = recorded();
    expect(await tool.handler({ title: "Plan", brief: "b" })).toEqual({ ok: true, documentId: "doc-1", title: "Plan" });
    expect(calls).toEqual(["handOff t1 Plan", "card handoff:doc-1 3/2"]);
  });

  it("makes nothing outside a running turn", async () => {
    const { calls, tool } = recorded({ turn: () => null });
    expect(await tool.handler({ title: "Plan", brief: "b" })).toMatchObject({ ok: false, error: { code: "not-found" } });
    expect(calls).toEqual([]);
  });

  it("answers a refused creation as a typed refusal and asks for no card", async () => {
    const { calls, tool } = recorded({
      handOff: async () => {
        throw new ChopinError("storage-failure", "The disk is full.");
      },
    });
    expect(await tool.handler({ title: "Plan", brief: "b" })).toEqual({ ok: false, error: { code: "storage-failure", message: "The plan was not handed off: The disk is full." } });
    expect(calls).toEqual([]);
  });

  it("says the plan exists when only its card was refused", async () => {
    const { tool } = recorded({ card: async () => false });
    expect(await tool.handler({ title: "Plan", brief: "b" })).toMatchObject({ ok: false, error: { code: "forbidden", message: expect.stringContaining("was made (id doc-1)") } });
  });
});
