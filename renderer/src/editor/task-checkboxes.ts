/**
 * Task list items (`- [ ]` / `- [x]`) render as real checkboxes. Clicking one is an ordinary edit of the one
 * character between the brackets, so it syncs, undoes and shows in history like typing. When the selection touches
 * the marker the raw `[ ]` is shown instead, so it can be edited as text.
 */
import { syntaxTree } from "@codemirror/language";
import type { EditorState, Extension, Range } from "@codemirror/state";
import { Decoration, EditorView, ViewPlugin, WidgetType, type DecorationSet, type ViewUpdate } from "@codemirror/view";

class CheckboxWidget extends WidgetType {
  constructor(readonly checked: boolean) {
    super();
  }
  override eq(other: CheckboxWidget) {
    return other.checked === this.checked;
  }
  toDOM() {
    const box = document.createElement("input");
    box.type = "checkbox";
    box.className = "cm-task-checkbox";
    box.checked = this.checked;
    box.setAttribute("aria-label", this.checked ? "Task done; mark as not done" : "Task not done; mark as done");
    return box;
  }
  override ignoreEvent() {
    return false;
  }
}

/** The edit that flips the task marker starting at `markerFrom` (`[ ]` <-> `[x]`), or null if there is none. */
export function toggleTaskAt(state: EditorState, markerFrom: number) {
  const marker = state.doc.sliceString(markerFrom, markerFrom + 3);
  if (!/^\[[ xX]\]$/.test(marker)) return null;
  return { changes: { from: markerFrom + 1, to: markerFrom + 2, insert: marker[1] === " " ? "x" : " " }, userEvent: "input.toggle-task" };
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
        decorations.push(Decoration.replace({ widget: new CheckboxWidget(checked) }).range(node.from, node.to));
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
      if (update.docChanged || update.viewportChanged || update.selectionSet || syntaxTree(update.startState) !== syntaxTree(update.state)) {
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
        const spec = toggleTaskAt(view.state, view.posAtDOM(target));
        if (spec) view.dispatch(spec);
        return true;
      },
      keydown(event, view) {
        const target = event.target as HTMLElement | null;
        if (!target?.classList.contains("cm-task-checkbox") || (event.key !== " " && event.key !== "Enter")) return false;
        event.preventDefault();
        const spec = toggleTaskAt(view.state, view.posAtDOM(target));
        if (spec) view.dispatch(spec);
        return true;
      },
    },
  },
);
