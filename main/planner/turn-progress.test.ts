import { describe, expect, it } from "vitest";
import { turnProgress } from "./turn-progress.js";

describe("a running turn as the windows see it", () => {
  it("folds streamed text, finished messages and tool calls into one progress value, and ends done", () => {
    const turn = turnProgress("plan", "m1");
    turn.apply({ type: "text-delta", messageId: "a", delta: "Reading " });
    expect(turn.apply({ type: "text-delta", messageId: "a", delta: "the plan." })).toMatchObject({ text: "Reading the plan.", tools: [], done: false });
    turn.apply({ type: "message", messageId: "a", content: "Reading the plan." });
    turn.apply({ type: "tool-start", toolCallId: "c1", name: "read_plan", args: {} });
    expect(turn.apply({ type: "tool-complete", toolCallId: "c1", name: "read_plan", ok: true }).tools).toEqual([{ id: "c1", name: "read_plan", status: "done" }]);
    turn.apply({ type: "tool-start", toolCallId: "c2", name: "edit_plan", args: {} });
    turn.apply({ type: "tool-complete", toolCallId: "c2", name: "edit_plan", ok: false, error: "stale" });
    const last = turn.apply({ type: "text-delta", messageId: "b", delta: "Done." });
    expect(last.text).toBe("Reading the plan.\n\nDone.");
    expect(last.tools.map((t) => [t.name, t.status, t.note])).toEqual([["read_plan", "done", undefined], ["edit_plan", "failed", "stale"]]);
    expect(turn.done()).toMatchObject({ documentId: "plan", turnId: "m1", done: true, text: "Reading the plan.\n\nDone." });
  });

  it("shows a refused call as refused, naming the check, never as started", () => {
    const turn = turnProgress("plan", "m1");
    const progress = turn.apply({ type: "tool-denied", name: "edit_plan", check: "ownership-generation", reason: "not the owner" });
    expect(progress.tools).toEqual([{ id: "denied-1", name: "edit_plan", status: "refused", note: "ownership-generation: not the owner" }]);
  });
});
