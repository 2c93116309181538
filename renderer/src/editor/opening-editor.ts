/**
 * The editor of a document that is still opening: it shows the core's text snapshot READ-ONLY (same presentation as
 * the live editor) while the replica loads the document, then `bind` turns this same EditorView into the live
 * editor: no remount, no flash, selection and scroll kept.
 * What must stay true: nothing typed can reach the editor before it is bound (read-only and not contenteditable),
 * and at binding the editor holds exactly the handle's text: a stale snapshot is replaced (by the smallest single
 * change, so the caret stays where it was) before the Automerge binding starts, and that replacement is not
 * undoable (history starts with the binding).
 */
import type { DocHandle } from "@automerge/automerge-repo";
import { Compartment, EditorState, type Extension } from "@codemirror/state";
import { READ_ONLY } from "./edit-lock.js";
import { EditorView } from "@codemirror/view";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import { planBinding, planPresentation } from "./plan-editor.js";

export interface OpeningEditor {
  readonly view: EditorView;
  /** Binds to a ready handle and makes the editor editable. Returns whether the shown text had to be replaced. */
  bind(handle: DocHandle<PlanDocument>, extensions?: Extension[]): boolean;
}

/** Order-insensitive equality of two head lists. */
export function sameHeads(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((head, i) => head === y[i]);
}

/** The one change turning `from` into `to`: common prefix and suffix kept. */
export function minimalChange(from: string, to: string): { from: number; to: number; insert: string } | null {
  if (from === to) return null;
  let start = 0;
  const max = Math.min(from.length, to.length);
  while (start < max && from.charCodeAt(start) === to.charCodeAt(start)) start += 1;
  let end = 0;
  while (end < max - start && from.charCodeAt(from.length - 1 - end) === to.charCodeAt(to.length - 1 - end)) end += 1;
  return { from: start, to: from.length - end, insert: to.slice(start, to.length - end) };
}

export function createOpeningEditor(parent: HTMLElement, text: string, heads: readonly string[]): OpeningEditor {
  const mode = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({ doc: text, extensions: [...planPresentation(), mode.of(READ_ONLY)] }),
  });
  let bound = false;
  return {
    view,
    bind(handle, extensions = []) {
      if (bound) throw new Error("This editor is already bound.");
      if (!handle.isReady()) throw new Error("The document must be ready before the editor binds to it.");
      bound = true;
      const body = handle.doc().text;
      const current = typeof body === "string" ? body : "";
      // Equal heads mean equal text; the text is compared anyway, so a damaged snapshot can never become the base.
      const change = sameHeads(heads, handle.heads()) && view.state.doc.length === current.length && view.state.doc.toString() === current
        ? null
        : minimalChange(view.state.doc.toString(), current);
      // Replaced while still read-only and before the binding exists, so it becomes neither an Automerge change nor
      // an undo step. Same JS task as the reconfigure below: the handle cannot change in between.
      if (change) view.dispatch({ changes: change });
      view.dispatch({ effects: mode.reconfigure(planBinding(handle, extensions)) });
      return change !== null;
    },
  };
}
