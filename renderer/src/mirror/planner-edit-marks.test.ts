/**
 * The marks of a Planner change as it arrives in a window's replica: made as the fenced write makes it (a fork under
 * an actor of its own, "agent: Planner", the bounded text diff), merged with people's concurrent typing, alone or in
 * one batch with a teammate's change; a person's change brings none.
 */
import { next as A } from "@automerge/automerge";
import { describe, expect, it } from "vitest";
import { PLANNER_AUTHOR, PLANNER_CHANGE_MESSAGE } from "../../../shared/planner-changes.js";
import { updateTextBounded } from "../../../shared/text-update.js";
import type { ChangeMark } from "./change-marks.js";
import { plannerEditMarks } from "./planner-edit-marks.js";

type Plan = { text: string; authors?: Record<string, string> };

let actors = 0;
const freshActor = () => (++actors).toString(16).padStart(32, "0");

/** The Planner's write of `markdown` as plan-publisher.ts prepares it on `base`: its change bytes. */
function plannerWrite(base: A.Doc<Plan>, markdown: string): Uint8Array[] {
  const fork = A.change(A.clone(base, { actor: freshActor() }), { message: PLANNER_CHANGE_MESSAGE }, (d) => {
    updateTextBounded(d, ["text"], markdown);
    if (!d.authors) d.authors = {};
    d.authors[A.getActorId(d)] = PLANNER_AUTHOR;
  });
  return A.getChanges(base, fork);
}

function typed(doc: A.Doc<Plan>, at: number, text: string, name = "Ada"): A.Doc<Plan> {
  return A.change(doc, (d) => {
    A.splice(d, ["text"], at, 0, text);
    if (!d.authors) d.authors = {};
    d.authors[A.getActorId(d)] = name;
  });
}

const covered = (doc: A.Doc<Plan>, marks: ChangeMark[]) => marks.flatMap((m) => (m.kind === "added" || m.kind === "moved" ? [doc.text.slice(m.from, m.to)] : []));
const marksSince = (doc: A.Doc<Plan>, heads: string[]) => plannerEditMarks(doc, heads, doc.text.length);

const PLAN = "# Launch\n\nWe ship in May.\n";
const start = () => A.from<Plan>({ text: PLAN, authors: {} }, { actor: freshActor() });

describe("plannerEditMarks", () => {
  it("marks the Planner's insert in the text as it is after merging what the person typed meanwhile", () => {
    const base = start();
    const write = plannerWrite(base, `${PLAN}\n## Risks\n\n- Late hardware\n`);
    // Meanwhile the person typed at the top and at the very end, where the Planner appends.
    let window = typed(typed(base, 0, "Draft: "), "Draft: ".length + PLAN.length, "Also June?");
    const heads = A.getHeads(window);
    [window] = A.applyChanges(window, write);
    const marks = marksSince(window, heads);
    expect(covered(window, marks)).toEqual(["## Risks\n\n- Late hardware"]);
    expect(marks).toHaveLength(1);
    expect(window.text.startsWith("Draft: # Launch")).toBe(true);
  });

  it("reads the Planner's change alone from a batch that also holds a teammate's typing inside its new text", () => {
    const base = start();
    const write = plannerWrite(base, PLAN.replace("in May.", "in June, with the new board."));
    let teammate = base;
    [teammate] = A.applyChanges(A.clone(teammate, { actor: freshActor() }), write);
    teammate = typed(teammate, teammate.text.indexOf("new board"), "very ", "Bo");
    let window = base;
    const heads = A.getHeads(window);
    [window] = A.applyChanges(window, A.getChanges(base, teammate));
    expect(window.text).toBe("# Launch\n\nWe ship in June, with the very new board.\n");
    const marks = marksSince(window, heads);
    expect(covered(window, marks).join("|")).toBe("June, with the |new board");
    expect(marks.filter((m) => m.kind === "removed")).toEqual([{ kind: "removed", at: window.text.indexOf("June"), text: "May", lines: false, cut: false }]);
  });

  it("marks each of two Planner changes arriving together, the later one's text not counted as the earlier one's", () => {
    const base = start();
    const first = plannerWrite(base, `${PLAN}\n## Risks\n`);
    let planner = A.clone(base, { actor: freshActor() });
    [planner] = A.applyChanges(planner, first);
    const second = plannerWrite(planner, `${PLAN}\n## Risks\n\n- Supply\n`);
    let window = base;
    const heads = A.getHeads(window);
    [window] = A.applyChanges(window, [...first, ...second]);
    expect(covered(window, marksSince(window, heads))).toEqual(["## Risks", "- Supply"]);
  });

  it("brings no marks for a person's change, or for changes the window already had", () => {
    const base = start();
    const heads = A.getHeads(base);
    const person = typed(A.clone(base), 0, "Hello ");
    expect(marksSince(person, heads)).toEqual([]);
    let window = base;
    [window] = A.applyChanges(window, plannerWrite(base, `${PLAN}more\n`));
    expect(marksSince(window, A.getHeads(window))).toEqual([]);
  });

  it("gives none rather than marks at wrong places when the text it is told of is not the document's", () => {
    const base = start();
    let window = base;
    [window] = A.applyChanges(window, plannerWrite(base, `${PLAN}more\n`));
    expect(plannerEditMarks(window, A.getHeads(base), window.text.length + 1)).toEqual([]);
  });
});
