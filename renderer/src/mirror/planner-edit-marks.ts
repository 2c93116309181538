/**
 * The change marks of the Planner's edits among the changes that just arrived in a plan (issue #26), in the body as it
 * is now: the replica's text authority asks on every change it merges and sends the marks with the update.
 *
 * Each Planner change is read on its own, from Automerge's history rather than from the merged patches: the batch
 * that brought it may hold people's changes too (a teammate's typing, synced in the same round), and the Planner
 * edited the plan as of its own dependencies, not as of this replica. So: the body at the change's dependencies, the
 * change's own edit to it (A.diff from its deps to it), and that edit's marks mapped through everything merged since
 * it (A.diff from it to the heads now), which cuts people's concurrent typing out of the Planner's ranges.
 *
 * Cost: a person's change costs reading the headers of the changes since the last heads (shared/planner-changes.ts);
 * the diffs and the body at the deps are computed for a Planner change alone.
 * What must stay true: nothing here throws into the authority (a mark is a hint; the text must go on); marks are
 * only ever of Planner changes.
 */
import { next as A } from "@automerge/automerge";
import { plannerChangesSince } from "../../../shared/planner-changes.js";
import { MAX_PLANNER_CHANGE_MARKS } from "../limits.js";
import { BODY_FIELD, textChangesOf } from "./automerge-text-changes.js";
import { mapMarks, marksOfEdit, type ChangeMark } from "./change-marks.js";

type Plan = { authors?: Record<string, string> };

/** The marks of the Planner changes `doc` has beyond `sinceHeads`, in its body now (`length` long); [] for none. */
export function plannerEditMarks(doc: A.Doc<Plan>, sinceHeads: readonly string[], length: number): ChangeMark[] {
  try {
    const changes = plannerChangesSince(doc, sinceHeads);
    if (changes.length === 0) return [];
    const heads = A.getHeads(doc);
    const marks: ChangeMark[] = [];
    for (const change of changes) {
      const before = bodyAt(doc, change.deps);
      const edit = textChangesOf(A.diff(doc, change.deps, [change.hash]), before.length);
      if (edit === null || edit === "unknown") continue;
      const later = textChangesOf(A.diff(doc, [change.hash], heads), edit.newLength);
      if (later === "unknown" || (later ?? edit).newLength !== length) continue;
      const own = marksOfEdit(before, edit);
      marks.push(...(later ? mapMarks(own, later) : own));
    }
    return marks.slice(0, MAX_PLANNER_CHANGE_MARKS);
  } catch {
    return [];
  }
}

function bodyAt(doc: A.Doc<Plan>, heads: string[]): string {
  const body = (A.view(doc, heads) as Record<string, unknown>)[BODY_FIELD];
  return typeof body === "string" ? body : "";
}
