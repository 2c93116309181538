/**
 * Task list items (`- [ ]` / `- [x]`) render as real checkboxes. Clicking one is an ordinary edit of the one
 * character between the brackets, so it syncs, undoes and shows in history like typing. When the selection touches
 * the marker the raw `[ ]` is shown instead, so it can be edited as text.
 * What must stay true: in a read-only editor (an older version, a document still opening) the boxes are disabled
 * and neither a click nor Space/Enter changes anything, not even the box's own look.
 */
import { syntaxTree } from "@codemirror/language";
import type { EditorState, Extension, Range } from "@codemirror/state";
import { Decoration, EditorView, ViewPlugin, WidgetType, type DecorationSet, type ViewUpdate } from "@codemirror/view";

/** Longest task text a box is named by; a longer task is named by its start. */
export const TASK_LABEL_MAX_CHARS = 80;

class CheckboxWidget extends WidgetType {
  constructor(
    readonly checked: boolean,
    readonly readOnly: boolean,
    /** The task's own words, which name the box (the checkbox role already says checked or not). */
    readonly label: string,
  ) {
    super();
  }
  override eq(other: CheckboxWidget) {
    return other.checked === this.checked && other.readOnly === this.readOnly && other.label === this.label;
  }
  toDOM() {
    const box = document.createElement("input");
    box.type = "checkbox";
    box.className = "cm-task-checkbox";
    // Not a Tab stop: a plan with forty tasks would be forty presses to leave the body; Mod+Enter toggles from the
    // text, and a screen reader still finds every box.
    box.tabIndex = -1;
    this.updateDOM(box);
    return box;
  }
  /** A toggle updates the box in place, so a box that has the focus keeps it. */
  override updateDOM(dom: HTMLElement) {
    if (!(dom instanceof HTMLInputElement)) return false;
    dom.checked = this.checked;
    // A disabled box does not toggle its own look on a click, and says it cannot be changed.
    dom.disabled = this.readOnly;
    dom.setAttribute("aria-label", this.label);
    return true;
  }
  override ignoreEvent() {
    return false;
  }
}

function taskLabel(state: EditorState, markerTo: number): string {
  const words = state.doc.sliceString(markerTo, state.doc.lineAt(markerTo).to).trim();
  if (!words) return "Task";
  return words.length > TASK_LABEL_MAX_CHARS ? `${words.slice(0, TASK_LABEL_MAX_CHARS - 1)}…` : words;
}

/** The edit that flips the task marker starting at `markerFrom` (`[ ]` <-> `[x]`), or null if there is none. */
export function toggleTaskAt(state: EditorState, markerFrom: number) {
  const marker = state.doc.sliceString(markerFrom, markerFrom + 3);
  if (!/^\[[ xX]\]$/.test(marker)) return null;
  return { changes: { from: markerFrom + 1, to: markerFrom + 2, insert: marker[1] === " " ? "x" : " " }, userEvent: "input.toggle-task" };
}

/**
 * Mod+Enter: toggles the task on each line the selection touches; false (so the key does what it otherwise does)
 * when none of them is a task.
 */
export function toggleTasksInSelection(view: EditorView): boolean {
  const { state } = view;
  if (state.readOnly) return false;
  const changes: { from: number; to: number; insert: string }[] = [];
  const seen = new Set<number>();
  for (const range of state.selection.ranges) {
    for (let pos = range.from; pos <= range.to; ) {
      const line = state.doc.lineAt(pos);
      if (!seen.has(line.from)) {
        seen.add(line.from);
        const marker = /^\s*(?:[-*+]|\d+[.)])\s+\[[ xX]\]/.exec(line.text);
        if (marker) {
          const from = line.from + marker[0].length - 3;
          const spec = toggleTaskAt(state, from);
          if (spec) changes.push(spec.changes);
        }
      }
      if (line.to >= range.to) break;
      pos = line.to + 1;
    }
  }
  if (changes.length === 0) return false;
  view.dispatch({ changes, userEvent: "input.toggle-task" });
  return true;
}

function build(state: EditorState, visible: readonly { from: number; to: number }[]): DecorationSet {
  const decorations: Range<Decoration>[] = [];
  for (const { from, to } of visible) {
    syntaxTree(state).iterate({
      from,
      to,
      enter: (node) => {
        if (node.name !== "TaskMarker") return;
        const touched = state.selection.ranges.some((r) => r.from <= node.to && r.to >= node.from);
        if (touched) return;
        const checked = state.doc.sliceString(node.from + 1, node.to - 1).toLowerCase() === "x";
        decorations.push(Decoration.replace({ widget: new CheckboxWidget(checked, state.readOnly, taskLabel(state, node.to)) }).range(node.from, node.to));
      },
    });
  }
  return Decoration.set(decorations, true);
}

export const taskCheckboxes: Extension = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = build(view.state, view.visibleRanges);
    }
    update(update: ViewUpdate) {
      if (
        update.docChanged ||
        update.viewportChanged ||
        update.selectionSet ||
        update.startState.readOnly !== update.state.readOnly ||
        syntaxTree(update.startState) !== syntaxTree(update.state)
      ) {
        this.decorations = build(update.state, update.view.visibleRanges);
      }
    }
  },
  {
    decorations: (plugin) => plugin.decorations,
    eventHandlers: {
      mousedown(event, view) {
        const target = event.target as HTMLElement | null;
        if (!target?.classList.contains("cm-task-checkbox")) return false;
        event.preventDefault();
        if (view.state.readOnly) return true;
        const spec = toggleTaskAt(view.state, view.posAtDOM(target));
        if (spec) view.dispatch(spec);
        return true;
      },
      // The document decides the box's look: its own toggle on click is cancelled (mousedown made the edit, if any).
      click(event) {
        const target = event.target as HTMLElement | null;
        if (!target?.classList.contains("cm-task-checkbox")) return false;
        event.preventDefault();
        return true;
      },
      keydown(event, view) {
        const target = event.target as HTMLElement | null;
        if (!target?.classList.contains("cm-task-checkbox") || (event.key !== " " && event.key !== "Enter")) return false;
        event.preventDefault();
        if (view.state.readOnly) return true;
        const spec = toggleTaskAt(view.state, view.posAtDOM(target));
        if (spec) view.dispatch(spec);
        return true;
      },
    },
  },
);
