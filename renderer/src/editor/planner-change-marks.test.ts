// @vitest-environment jsdom
/**
 * The Planner's edits marked in the editor, through the real path: a Planner change written as the fenced write
 * writes it arrives at a teammate's replica (linked Repos), the text authority finds it and sends its marks with the
 * update, the mirror hands them to the editor. The marks show what was added and removed, follow later typing
 * without taking it in, never enter the text, fade at PLANNER_CHANGE_MARK_SHOW_MS and are gone
 * PLANNER_CHANGE_MARK_FADE_MS later (an injected clock, no waiting); a person's edit brings none.
 */
import { next as A } from "@automerge/automerge";
import type { DocHandle } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import { PLANNER_AUTHOR, PLANNER_CHANGE_MESSAGE } from "../../../shared/planner-changes.js";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import { updateTextBounded } from "../../../shared/text-update.js";
import { waitFor } from "../../../shared/wait-for.js";
import { PLANNER_CHANGE_MARK_FADE_MS, PLANNER_CHANGE_MARK_SHOW_MS } from "../limits.js";
import { unconfirmedEdits } from "../mirror/editor-mirror.js";
import { allHold, mirrorSession, type MirrorSession } from "../mirror/mirror-test-support.js";
import "../test/jsdom-layout.js";
import { ADDED_TITLE, movedFromTitle, movedTitle, plannerChangeMarks, REMOVED_TITLE, shownPlannerMarks } from "./planner-change-marks.js";

const sessions: MirrorSession[] = [];
afterEach(() => {
  while (sessions.length) sessions.pop()!.close();
});

/** A clock the test moves by hand: the marks' timers run only when it passes their time. */
function manualClock() {
  let now = 0;
  const timers: { at: number; run: () => void; cancelled: boolean }[] = [];
  return {
    schedule(run: () => void, ms: number) {
      const timer = { at: now + ms, run, cancelled: false };
      timers.push(timer);
      return () => void (timer.cancelled = true);
    },
    advance(ms: number) {
      now += ms;
      for (const timer of timers.filter((t) => t.at <= now && !t.cancelled).sort((a, b) => a.at - b.at)) {
        timer.cancelled = true;
        timer.run();
      }
    },
    pending: () => timers.filter((t) => !t.cancelled).length,
  };
}

async function open(text: string) {
  const clock = manualClock();
  const session = await mirrorSession({ text, extensions: [plannerChangeMarks({ schedule: (run, ms) => clock.schedule(run, ms) })] });
  sessions.push(session);
  return { s: session, clock };
}

/** The Planner writes `markdown` as plan-publisher.ts does (its own actor, its message), on the other person's side. */
function plannerWrites(remote: DocHandle<PlanDocument>, markdown: string): void {
  remote.update((doc) => {
    const fork = A.change(A.clone(doc, { actor: "f1".repeat(16) }), { message: PLANNER_CHANGE_MESSAGE }, (d) => {
      updateTextBounded(d, ["text"], markdown);
      d.authors[A.getActorId(d)] = PLANNER_AUTHOR;
    });
    return A.applyChanges(doc, A.getChanges(doc, fork))[0];
  });
}

const added = (s: MirrorSession) => [...s.view.contentDOM.querySelectorAll(`ins[title="${ADDED_TITLE}"]`)].map((e) => e.textContent).join("|");
const ghosts = (s: MirrorSession) => [...s.view.dom.querySelectorAll(`[title="${REMOVED_TITLE}"]`)];

const PLAN = "# Launch\n\nWe ship in May.\n";

describe("the Planner's change marks in the editor", () => {
  it("marks what the Planner added and removed, keeps the ghost out of the text, then fades and removes the marks", async () => {
    const before = `${PLAN}\n## Team\n\nAda.\n`;
    const { s, clock } = await open(before);
    const after = "# Launch\n\nWe ship in June.\n\n## Risks\n\n## Team\n\nAda.\n";
    plannerWrites(s.remote, after);
    await waitFor(() => allHold(s, after) && added(s) !== "", "the Planner's edit marked in the editor", 10_000);

    // The bounded diff takes the "." between the two edits with them: one replacement, drawn on two lines.
    expect(added(s)).toBe("June.|## Risks");
    const [ghost] = ghosts(s);
    expect(ghost.textContent).toBe("May.");
    expect(ghost.getAttribute("aria-label")).toBe(`${REMOVED_TITLE}: May.`);
    expect(ghost.querySelector("del")).not.toBeNull();
    // A ghost is a widget only: the editor's text, the replica's and the other person's have no "May.".
    expect(s.view.state.doc.toString()).toBe(after);
    expect(s.view.contentDOM.querySelectorAll(".is-fading")).toHaveLength(0);

    clock.advance(PLANNER_CHANGE_MARK_SHOW_MS - 1);
    expect(s.view.contentDOM.querySelectorAll(".is-fading")).toHaveLength(0);
    clock.advance(1);
    const fading = [...s.view.contentDOM.querySelectorAll<HTMLElement>(".cm-planner-mark.is-fading")];
    expect(fading).toHaveLength(3);
    expect(fading.every((e) => e.style.animationDuration === `${PLANNER_CHANGE_MARK_FADE_MS}ms`)).toBe(true);

    clock.advance(PLANNER_CHANGE_MARK_FADE_MS);
    expect(s.view.contentDOM.querySelectorAll(".cm-planner-mark")).toHaveLength(0);
    expect(shownPlannerMarks(s.view.state)).toEqual([]);
    expect(clock.pending()).toBe(0);
    expect(s.view.state.doc.toString()).toBe(after);
  });

  it("brings no marks for a person's edit, and never marks what this person types inside the Planner's text", async () => {
    const { s, clock } = await open(PLAN);
    s.remoteSplice(PLAN.length, 0, "Bo typed this.\n");
    await waitFor(() => allHold(s, `${PLAN}Bo typed this.\n`), "the teammate's edit in the editor", 10_000);
    expect(shownPlannerMarks(s.view.state)).toEqual([]);
    expect(s.view.contentDOM.querySelectorAll(".cm-planner-mark")).toHaveLength(0);
    expect(clock.pending()).toBe(0);

    const after = `${PLAN}Bo typed this.\n\nShip the beta first.\n`;
    plannerWrites(s.remote, after);
    await waitFor(() => allHold(s, after) && added(s) !== "", "the Planner's edit marked", 10_000);
    expect(added(s)).toBe("Ship the beta first.");

    const at = after.indexOf("beta");
    s.view.dispatch({ changes: { from: at, insert: "public " }, userEvent: "input.type" });
    expect(added(s)).toBe("Ship the |beta first.");
    await waitFor(() => unconfirmedEdits(s.view.state) === 0 && allHold(s, after.replace("beta", "public beta")), "the typing everywhere", 10_000);
    expect(added(s)).toBe("Ship the |beta first.");
  });

  it("marks the Planner's edit where it lands when this person typed before it meanwhile", async () => {
    const { s } = await open(PLAN);
    // Typed here and not yet in the replica when the Planner's edit arrives: collab maps the marks over it.
    s.view.dispatch({ changes: { from: 0, insert: "Draft. " }, userEvent: "input.type" });
    plannerWrites(s.remote, PLAN.replace("May", "June"));
    await waitFor(() => allHold(s, "Draft. # Launch\n\nWe ship in June.\n") && added(s) !== "", "both edits, marked", 10_000);
    expect(added(s)).toBe("June");
    const [{ mark }] = shownPlannerMarks(s.view.state).filter(({ mark }) => mark.kind === "added");
    expect(mark.kind === "added" && s.view.state.doc.sliceString(mark.from, mark.to)).toBe("June");
  });

  it("outlines a moved block where it is now and marks where it was, as moved rather than removed and added", async () => {
    const before = "# Launch\n\n## Risks\n\n- Supply\n\n## Team\n\nAda.\n";
    const after = "# Launch\n\n## Team\n\nAda.\n\n## Risks\n\n- Supply\n";
    const { s } = await open(before);
    plannerWrites(s.remote, after);
    await waitFor(() => allHold(s, after) && s.view.dom.querySelector(".cm-planner-moved") !== null, "the move marked", 10_000);
    const kinds = shownPlannerMarks(s.view.state).map(({ mark }) => mark.kind).sort();
    expect(kinds).toEqual(["moved", "moved-from"]);
    const [{ mark: moved }] = shownPlannerMarks(s.view.state).filter(({ mark }) => mark.kind === "moved");
    const direction = moved.kind === "moved" ? moved.direction : "down";
    expect(s.view.dom.querySelectorAll(`[title="${movedTitle(direction)}"]`).length).toBeGreaterThan(0);
    const marker = s.view.dom.querySelector(`[role="img"][aria-label="${movedFromTitle(direction)}"]`);
    expect(marker?.textContent).toMatch(/^Moved [↑↓]$/);
    expect(ghosts(s)).toHaveLength(0);
    expect(added(s)).toBe("");
  });
});
