/**
 * A bounded replacement for A.updateText: makes the Automerge text at `path` equal `newText` with the splices
 * planTextSplices chooses (trimmed, line-diffed, small hunks refined by code points), so the cost stays near-linear
 * in the text's size however different the new text is, while unchanged lines keep their Automerge identity and a
 * teammate's concurrent edit elsewhere still merges. Call it inside a change callback, on the change's draft.
 * What must stay true: afterwards the text equals `newText` exactly; splices go from the end backwards, so each one's
 * index (UTF-16 code units of the old text, Automerge's text index in this codebase) is still valid when applied.
 */
import { next as A } from "@automerge/automerge";
import { planTextSplices, type SplicePlan } from "./text-splices.js";

/** Writes `newText` into the text at `path` of `draft` (a change callback's document); returns the plan applied. */
export function updateTextBounded<T>(draft: A.Doc<T>, path: A.Prop[], newText: string): SplicePlan {
  let current: unknown = draft;
  for (const key of path) current = (current as Record<A.Prop, unknown> | undefined)?.[key];
  if (typeof current !== "string") {
    throw new TypeError(`updateTextBounded: no text at ${JSON.stringify(path)}`);
  }
  const plan = planTextSplices(current, newText);
  for (let i = plan.splices.length - 1; i >= 0; i--) {
    const { index, deleteCount, insert } = plan.splices[i];
    A.splice(draft, path, index, deleteCount, insert);
  }
  return plan;
}
