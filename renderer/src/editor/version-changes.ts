/**
 * Which lines a version added or changed, against the version before it, so the version view can mark them: a
 * person looking at an old version wants to see what that version did. Cheap and bounded for any plan size: the
 * common first and last lines are skipped, and a line in between counts as changed unless the version before had the
 * same line in between too (a multiset, so moved or repeated lines are not marked twice). Not a minimal diff, and it
 * does not need to be: it marks, it never merges.
 */
import { RangeSetBuilder, type Extension } from "@codemirror/state";
import { Decoration, EditorView } from "@codemirror/view";

/** 1-based numbers of the lines of `after` that `before` did not have (all of them when there is no `before`). */
export function changedLines(before: string | null, after: string): number[] {
  const next = after.split("\n");
  if (before === null) return [];
  const prev = before.split("\n");
  let start = 0;
  while (start < prev.length && start < next.length && prev[start] === next[start]) start++;
  let endPrev = prev.length;
  let endNext = next.length;
  while (endPrev > start && endNext > start && prev[endPrev - 1] === next[endNext - 1]) {
    endPrev--;
    endNext--;
  }
  const available = new Map<string, number>();
  for (let i = start; i < endPrev; i++) available.set(prev[i], (available.get(prev[i]) ?? 0) + 1);
  const changed: number[] = [];
  for (let i = start; i < endNext; i++) {
    const left = available.get(next[i]) ?? 0;
    if (left > 0) available.set(next[i], left - 1);
    else if (next[i].trim() !== "") changed.push(i + 1);
  }
  return changed;
}

const changedLine = Decoration.line({ class: "cm-version-changed" });

/** Marks the given 1-based lines (a read-only view's document never changes, so the set is built once). */
export function markLines(lines: readonly number[]): Extension {
  return EditorView.decorations.compute([], (state) => {
    const builder = new RangeSetBuilder<Decoration>();
    for (const n of lines) if (n >= 1 && n <= state.doc.lines) builder.add(state.doc.line(n).from, state.doc.line(n).from, changedLine);
    return builder.finish();
  });
}
