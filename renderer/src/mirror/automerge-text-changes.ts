/**
 * Translation between the two descriptions of an edit to a plan's body: Automerge's patches on ["text"] (what a
 * merged change did to the text) and CodeMirror's ChangeSet (what the editor mirror exchanges with the replica).
 * What must stay true: a ChangeSet made here, applied to the text before the patches, gives the text after them;
 * `spliceChanges` turns a ChangeSet into splices that do the same to an Automerge text, in one change.
 */
import { next as A } from "@automerge/automerge";
import { ChangeSet } from "@codemirror/state";

export const BODY_FIELD = "text";

/**
 * The text edits among `patches` as one ChangeSet over a text of `length` characters, or null when they hold none.
 * Patches apply one after another (each index is into the text the previous one left), so they are composed in
 * order. Returns "unknown" for a patch the mirror cannot follow (the body replaced by something that is not text),
 * so the caller resynchronises from the document instead of guessing.
 */
export function textChangesOf(patches: readonly A.Patch[], length: number): ChangeSet | null | "unknown" {
  let composed: ChangeSet | null = null;
  let current = length;
  const add = (from: number, to: number, insert: string): boolean => {
    if (from < 0 || to < from || to > current) return false;
    const step = ChangeSet.of({ from, to, insert }, current);
    composed = composed ? composed.compose(step) : step;
    current = current - (to - from) + insert.length;
    return true;
  };
  for (const patch of patches) {
    if (patch.path[0] !== BODY_FIELD) continue;
    if (patch.path.length === 1) {
      // The whole field written: a new text ("put" of a string) replaces the old one; anything else is not followed.
      if (patch.action === "put" && typeof patch.value === "string") {
        if (!add(0, current, patch.value)) return "unknown";
        continue;
      }
      if (patch.action === "mark" || patch.action === "unmark") continue;
      return "unknown";
    }
    const index = patch.path[1];
    if (patch.path.length !== 2 || typeof index !== "number") continue;
    if (patch.action === "splice") {
      if (!add(index, index, patch.value)) return "unknown";
    } else if (patch.action === "del") {
      if (!add(index, index + (patch.length ?? 1), "")) return "unknown";
    } else if (patch.action !== "mark" && patch.action !== "unmark") {
      return "unknown";
    }
  }
  return composed;
}

/**
 * Applies `changes` to the Automerge text at [BODY_FIELD] inside a change callback. Ranges are taken from the end
 * backwards, so each splice's positions are still those of the text the ChangeSet was made for.
 */
export function spliceChanges(doc: A.Doc<unknown>, changes: ChangeSet): void {
  const ranges: { from: number; to: number; insert: string }[] = [];
  changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => ranges.push({ from: fromA, to: toA, insert: inserted.toString() }));
  for (let i = ranges.length - 1; i >= 0; i--) {
    const { from, to, insert } = ranges[i];
    A.splice(doc, [BODY_FIELD], from, to - from, insert);
  }
}

/** The one change turning `from` into `to` (common prefix and suffix kept), as a ChangeSet; null when equal. */
export function replacementOf(from: string, to: string): ChangeSet | null {
  if (from === to) return null;
  let start = 0;
  const max = Math.min(from.length, to.length);
  while (start < max && from.charCodeAt(start) === to.charCodeAt(start)) start += 1;
  let end = 0;
  while (end < max - start && from.charCodeAt(from.length - 1 - end) === to.charCodeAt(to.length - 1 - end)) end += 1;
  return ChangeSet.of({ from: start, to: from.length - end, insert: to.slice(start, to.length - end) }, from.length);
}
