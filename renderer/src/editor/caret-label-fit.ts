/**
 * Keeps each remote caret's name label inside the editor's visible area: a caret near the right edge puts its label
 * to the caret's left, and one on the first visible line puts it below the line, instead of a label cut off by the
 * scroller ("Alice An…", UX audit). Measured after layout, through CodeMirror's measure cycle (read, then write), so
 * it never forces a layout of its own.
 */
import { ViewPlugin, type EditorView, type ViewUpdate } from "@codemirror/view";
import { remoteCaretsField } from "./remote-carets.js";

const LABEL_SELECTOR = ".cm-remote-caret-label";
const FLIP_X_CLASS = "is-flip-x";
const FLIP_Y_CLASS = "is-flip-y";

export interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * Where a label goes: flipped left when, placed right of the caret, it would pass the area's right edge (and fits on
 * the left); flipped below when, placed above the caret's line, it would pass the area's top. Judged from the caret's
 * box and the label's size, which flipping does not change, so a label never flips back and forth.
 */
export function labelPlacement(size: { width: number; height: number }, caret: Box, area: Box): { x: boolean; y: boolean } {
  return {
    x: caret.left + size.width > area.right && caret.left - size.width >= area.left,
    y: caret.top - size.height < area.top,
  };
}

export const caretLabelFit = ViewPlugin.fromClass(
  class {
    constructor(view: EditorView) {
      this.schedule(view);
    }
    update(update: ViewUpdate) {
      // Carets move with presence updates and edits; with none shown there is nothing to measure.
      if ((update.state.field(remoteCaretsField, false)?.length ?? 0) > 0) this.schedule(update.view);
    }
    schedule(view: EditorView) {
      view.requestMeasure({
        key: this,
        read: (v) => {
          const area = v.scrollDOM.getBoundingClientRect();
          return [...v.contentDOM.querySelectorAll<HTMLElement>(LABEL_SELECTOR)].map((label) => {
            const caret = label.parentElement!.getBoundingClientRect();
            const size = { width: label.offsetWidth, height: label.offsetHeight };
            return { label, place: labelPlacement(size, caret, area) };
          });
        },
        write: (placements) => {
          for (const { label, place } of placements) {
            label.classList.toggle(FLIP_X_CLASS, place.x);
            label.classList.toggle(FLIP_Y_CLASS, place.y);
          }
        },
      });
    }
  },
);
