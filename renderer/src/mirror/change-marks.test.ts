/**
 * From one Planner edit to its marks (added, removed, moved), made from realistic edits (the bounded text diff the
 * Planner writes with, read back as Automerge patches), and the marks mapped through later edits: other people's text
 * typed inside a marked range is never counted as the Planner's.
 */
import { next as A } from "@automerge/automerge";
import { ChangeSet, Text } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { updateTextBounded } from "../../../shared/text-update.js";
import { MAX_PLANNER_CHANGE_MARKS, PLANNER_REMOVED_TEXT_SHOWN_CHARS } from "../limits.js";
import { textChangesOf } from "./automerge-text-changes.js";
import { checkedMarks, mapMarks, marksOfEdit, plannerMarksArrived, type ChangeMark } from "./change-marks.js";

/** The edit the Planner's write makes from `before` to `after` (updateTextBounded, as plan-publisher.ts writes it). */
function plannerEdit(before: string, after: string): ChangeSet {
  const doc = A.from({ text: before });
  const next = A.change(doc, (d) => void updateTextBounded(d, ["text"], after));
  const edit = textChangesOf(A.diff(next, A.getHeads(doc), A.getHeads(next)), before.length);
  if (edit === null || edit === "unknown") throw new Error("no edit");
  expect(edit.apply(Text.of(before.split("\n"))).toString()).toBe(after);
  return edit;
}

/** What each mark covers or shows, for reading the expectations. */
function described(after: string, marks: ChangeMark[]) {
  return marks.map((m) => (m.kind === "added" || m.kind === "moved" ? { ...m, covers: after.slice(m.from, m.to) } : m));
}

const PLAN = "# Launch\n\nWe ship in May.\n\n## Risks\n\n- Late hardware\n\n## Team\n\nAda and Bo.\n";

describe("marksOfEdit", () => {
  it("marks an inserted section as added, without the blank lines around it", () => {
    const after = PLAN.replace("## Team", "## Budget\n\nTen thousand.\n\n## Team");
    const marks = marksOfEdit(PLAN, plannerEdit(PLAN, after));
    expect(described(after, marks)).toEqual([{ kind: "added", from: after.indexOf("## Budget"), to: after.indexOf("Ten thousand.") + "Ten thousand.".length, covers: "## Budget\n\nTen thousand." }]);
  });

  it("marks a replaced word as removed where it was and the new word as added", () => {
    const after = PLAN.replace("in May.", "in June.");
    const marks = marksOfEdit(PLAN, plannerEdit(PLAN, after));
    const at = after.indexOf("June");
    expect(described(after, marks)).toEqual([
      { kind: "added", from: at, to: at + 4, covers: "June" },
      { kind: "removed", at, text: "May", lines: false, cut: false },
    ]);
  });

  it("marks a deleted section as removed lines at its place, showing its text", () => {
    const after = PLAN.replace("## Risks\n\n- Late hardware\n\n", "");
    const marks = marksOfEdit(PLAN, plannerEdit(PLAN, after));
    expect(marks).toEqual([{ kind: "removed", at: after.indexOf("## Team"), text: "## Risks\n\n- Late hardware", lines: true, cut: false }]);
  });

  it("marks a moved block as moved where it is now and moved-from where it was, not as removed and added", () => {
    const after = "# Launch\n\nWe ship in May.\n\n## Team\n\nAda and Bo.\n\n## Risks\n\n- Late hardware\n";
    const marks = described(after, marksOfEdit(PLAN, plannerEdit(PLAN, after)));
    expect(marks.map((m) => m.kind).sort()).toEqual(["moved", "moved-from"]);
    const moved = marks.find((m) => m.kind === "moved")!;
    const from = marks.find((m) => m.kind === "moved-from")!;
    // Whichever block the line diff chose to carry, the marked text is one whole block, in both places.
    expect(["## Risks\n\n- Late hardware", "## Team\n\nAda and Bo."]).toContain("covers" in moved && moved.covers);
    expect(moved.kind === "moved" && from.kind === "moved-from" && moved.direction === from.direction).toBe(true);
    expect(moved.kind === "moved" && (moved.direction === "down") === moved.from > (from.kind === "moved-from" ? from.at : 0)).toBe(true);
  });

  it("does not take one word put in two places for a move, only whole blocks", () => {
    const before = "alpha beta gamma\n";
    const after = "beta alpha gamma\n";
    expect(marksOfEdit(before, plannerEdit(before, after)).some((m) => m.kind === "moved" || m.kind === "moved-from")).toBe(false);
  });

  it("cuts a long removed passage to what it shows and says so, and makes at most the bounded number of marks", () => {
    const long = "x".repeat(PLANNER_REMOVED_TEXT_SHOWN_CHARS + 50);
    const before = `keep\n${long}\nkeep too\n`;
    const [removed] = marksOfEdit(before, plannerEdit(before, "keep\nkeep too\n"));
    expect(removed).toMatchObject({ kind: "removed", cut: true, text: "x".repeat(PLANNER_REMOVED_TEXT_SHOWN_CHARS) });

    const many = Array.from({ length: MAX_PLANNER_CHANGE_MARKS + 20 }, (_, i) => `line ${i}`).join("\n");
    const edit = ChangeSet.of(Array.from({ length: MAX_PLANNER_CHANGE_MARKS + 20 }, (_, i) => ({ from: many.indexOf(`line ${i}`), insert: "+" })), many.length);
    expect(marksOfEdit(many, edit)).toHaveLength(MAX_PLANNER_CHANGE_MARKS);
  });
});

describe("mapMarks: the marks through later edits", () => {
  const text = "We ship in June, with Bo.";
  const added: ChangeMark = { kind: "added", from: 11, to: 16 };
  const removed: ChangeMark = { kind: "removed", at: 11, text: "May", lines: false, cut: false };

  it("keeps text typed at either end outside the added range, and cuts text typed inside out of it", () => {
    const atEnds = ChangeSet.of([{ from: 11, insert: "<" }, { from: 16, insert: ">" }], text.length);
    expect(mapMarks([added], atEnds)).toEqual([{ kind: "added", from: 12, to: 17 }]);
    const inside = ChangeSet.of({ from: 13, insert: "typed" }, text.length);
    expect(mapMarks([added], inside)).toEqual([
      { kind: "added", from: 11, to: 13 },
      { kind: "added", from: 18, to: 21 },
    ]);
  });

  it("moves the removed text's place with the edits before it, and drops it once the text around it is deleted", () => {
    expect(mapMarks([removed], ChangeSet.of({ from: 0, insert: "So: " }, text.length))).toEqual([{ ...removed, at: 15 }]);
    expect(mapMarks([removed, added], ChangeSet.of({ from: 8, to: 20 }, text.length))).toEqual([]);
  });

  it("is what the effect does when collab maps it over later updates and this editor's unconfirmed typing", () => {
    const effect = plannerMarksArrived.of([added]);
    const mapped = effect.map(ChangeSet.of({ from: 13, insert: "typed" }, text.length));
    expect(mapped?.value).toEqual(mapMarks([added], ChangeSet.of({ from: 13, insert: "typed" }, text.length)));
    expect(effect.map(ChangeSet.of({ from: 0, to: text.length }, text.length))).toBeUndefined();
  });
});

describe("checkedMarks", () => {
  it("keeps well-formed marks inside the text and drops anything else", () => {
    const good: ChangeMark[] = [
      { kind: "added", from: 0, to: 2 },
      { kind: "moved", from: 1, to: 3, direction: "up" },
      { kind: "removed", at: 4, text: "x", lines: false, cut: false },
      { kind: "moved-from", at: 4, direction: "down" },
    ];
    const bad = [null, 3, { kind: "added", from: 2, to: 2 }, { kind: "added", from: 0, to: 9 }, { kind: "moved", from: 0, to: 1 }, { kind: "removed", at: -1, text: "x", lines: false, cut: false }, { kind: "other", at: 0 }];
    expect(checkedMarks([...good, ...bad], 4)).toEqual(good);
    expect(checkedMarks("marks", 4)).toEqual([]);
  });
});
