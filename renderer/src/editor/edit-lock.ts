/**
 * The body locked against edits: read-only and not contenteditable, so nothing typed, pasted or dropped reaches it
 * (the opening snapshot, an older version, an archived plan). `editLock` switches a live editor between the two
 * without rebuilding it, so an archive or restore arriving while the plan is open keeps the caret and scroll.
 */
import { Compartment, EditorState, type Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";

export const READ_ONLY: Extension = [EditorState.readOnly.of(true), EditorView.editable.of(false)];

export interface EditLock {
  /** Goes in the editor's extensions once; `locked` is the state it starts in. */
  extension(locked: boolean): Extension;
  /** Locks or unlocks the editor that holds `extension`. */
  set(view: EditorView, locked: boolean): void;
}

export function editLock(): EditLock {
  const compartment = new Compartment();
  return {
    extension: (locked) => compartment.of(locked ? READ_ONLY : []),
    set(view, locked) {
      if (view.state.readOnly === locked && view.state.facet(EditorView.editable) === !locked) return;
      view.dispatch({ effects: compartment.reconfigure(locked ? READ_ONLY : []) });
    },
  };
}
