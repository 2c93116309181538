/**
 * What a version did against the version before it, so the version view can show it: the lines it added or changed
 * (marked) and the lines it removed (shown struck through where they were). A person looking at an old version wants
 * to see what that version did; a version that only deleted a paragraph must not look like it did nothing. Cheap and
 * bounded for any plan size: the common first and last lines are skipped, and a line in between counts as changed
 * unless the version before had the same line in between too (a multiset, so moved or repeated lines are not marked
 * twice); what the version before had in between and this one lacks was removed. Not a minimal diff, and it does not
 * need to be: it shows, it never merges.
 */
import { StateField, type Extension } from "@codemirror/state";
import { Decoration, EditorView, WidgetType, type DecorationSet } from "@codemirror/view";

export interface VersionChanges {
  /** 1-based numbers of this version's lines that the version before did not have. */
  changed: number[];
  /** Non-blank lines the version before had and this one does not, in their order. */
  removed: string[];
  /** Where they were: after this many lines of this version (0 = before the first line). */
  removedAfterLine: number;
}

const NO_CHANGES: VersionChanges = { changed: [], removed: [], removedAfterLine: 0 };

/** Nothing without a version before: the first version is all new, and marking every line would say nothing. */
export function versionChanges(before: string | null, after: string): VersionChanges {
  if (before === null) return NO_CHANGES;
  const next = after.split("\n");
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
  const removed: string[] = [];
  for (let i = start; i < endPrev; i++) {
    const left = available.get(prev[i]) ?? 0;
    if (left === 0) continue;
    available.set(prev[i], left - 1);
    if (prev[i].trim() !== "") removed.push(prev[i]);
  }
  return { changed, removed, removedAfterLine: start };
}

/**
 * The version view's banner; null when no line changed (or for the first version). A changed line is both: its new
 * text is marked and the text it replaced is struck through, as in a diff.
 */
export function changesWords({ changed, removed }: VersionChanges): string | null {
  const lines = (n: number) => (n === 1 ? "1 line" : `${n} lines`);
  if (changed.length > 0 && removed.length > 0) {
    return `${lines(changed.length)} added or changed, marked; ${lines(removed.length)} replaced or removed, struck through`;
  }
  if (changed.length > 0) return `${lines(changed.length)} this version added or changed, marked`;
  if (removed.length > 0) return `${lines(removed.length)} this version removed, shown struck through`;
  return null;
}

const changedLine = Decoration.line({ class: "cm-version-changed" });

/** The removed lines, struck through, between the lines where they were. */
class RemovedLines extends WidgetType {
  constructor(readonly lines: readonly string[]) {
    super();
  }
  override eq(other: RemovedLines): boolean {
    return other.lines.length === this.lines.length && other.lines.every((line, i) => line === this.lines[i]);
  }
  override toDOM(): HTMLElement {
    const block = document.createElement("div");
    block.className = "cm-version-removed";
    block.setAttribute("role", "note");
    block.setAttribute("aria-label", this.lines.length === 1 ? "1 line removed by this version" : `${this.lines.length} lines removed by this version`);
    for (const line of this.lines) {
      const del = document.createElement("del");
      del.textContent = line;
      block.append(del);
    }
    return block;
  }
}

/** Marks what the version did (a read-only view's document never changes, so the decorations are built once). */
export function markChanges(changes: VersionChanges): Extension {
  const build = (doc: EditorView["state"]["doc"]): DecorationSet => {
    const marks = changes.changed.filter((n) => n >= 1 && n <= doc.lines).map((n) => changedLine.range(doc.line(n).from));
    if (changes.removed.length > 0) {
      const after = Math.min(changes.removedAfterLine, doc.lines);
      const widget = new RemovedLines(changes.removed);
      // Before the first line, or below the line they followed.
      const at = after === 0 ? Decoration.widget({ widget, block: true, side: -1 }).range(0) : Decoration.widget({ widget, block: true, side: 1 }).range(doc.line(after).to);
      marks.push(at);
    }
    return Decoration.set(marks, true);
  };
  // Block widgets must come from a state field, not a view plugin.
  return StateField.define<DecorationSet>({
    create: (state) => build(state.doc),
    update: (value) => value,
    provide: (field) => EditorView.decorations.from(field),
  });
}
