/**
 * The editor refuses any edit of this window that would make the body larger than MAX_DOCUMENT_MARKDOWN_BYTES (UTF-8
 * bytes, the measure the core's bounds use): a 1 MB paste froze the page for seconds and left a document every MCP
 * update of which the core then refused. A refused edit leaves the document exactly as it was and is announced as a
 * `bodySizeRefused` effect, so the window can say so in words.
 * What must stay true: the size is kept as a running count (each transaction costs the size of its change, never of
 * the document); edits that do not grow the body (deleting, even above the limit) always pass; other people's edits
 * (the mirror's remote transactions) are never refused, or this editor would stop matching the document.
 */
import { EditorState, StateEffect, StateField, Transaction, type ChangeSet, type Extension, type Text } from "@codemirror/state";
import { MAX_DOCUMENT_MARKDOWN_BYTES } from "../../../shared/limits.js";
import { utf8Bytes, utf8RangeBytes } from "../../../shared/utf8.js";

export interface BodySizeRefusal {
  /** What the person did: the words differ ("nothing was pasted", "what you typed was not added"). */
  kind: "paste" | "drop" | "typing" | "change";
  /** The body's size had the edit been accepted, in UTF-8 bytes. */
  bytes: number;
  limit: number;
}

export const bodySizeRefused = StateEffect.define<BodySizeRefusal>();

/** UTF-8 bytes of the whole body (once, when the editor starts). Lines never split a surrogate pair. */
export function textBytes(doc: Text): number {
  let bytes = 0;
  for (const iter = doc.iter(); !iter.next().done; ) bytes += utf8Bytes(iter.value);
  return bytes;
}

/** Bytes of doc[from, to), a surrogate's pairing judged by its neighbours outside the range too. */
function rangeBytes(doc: Text, from: number, to: number): number {
  if (to <= from) return 0;
  const lo = Math.max(0, from - 1);
  const text = doc.sliceString(lo, Math.min(doc.length, to + 1));
  return utf8RangeBytes(text, from - lo, to - lo);
}

/**
 * How many UTF-8 bytes `changes` add to `before` (negative: remove), exactly, in time proportional to the change.
 * Each changed range is counted with one character either side (whose pairing the change may alter) in both
 * documents; windows are clipped where the previous one ended, so no character is counted twice.
 */
export function changeByteDelta(before: Text, changes: ChangeSet, after: Text): number {
  let delta = 0;
  let endA = 0;
  let endB = 0;
  changes.iterChangedRanges((fromA, toA, fromB, toB) => {
    const a0 = Math.max(fromA - 1, endA);
    const a1 = Math.min(toA + 1, before.length);
    const b0 = Math.max(fromB - 1, endB);
    const b1 = Math.min(toB + 1, after.length);
    delta += rangeBytes(after, b0, b1) - rangeBytes(before, a0, a1);
    endA = Math.max(endA, a1);
    endB = Math.max(endB, b1);
  });
  return delta;
}

function kindOf(tr: Transaction): BodySizeRefusal["kind"] {
  if (tr.isUserEvent("input.paste")) return "paste";
  if (tr.isUserEvent("input.drop")) return "drop";
  if (tr.isUserEvent("input")) return "typing";
  return "change";
}

/** The body's size in UTF-8 bytes, kept current transaction by transaction. */
export const bodyBytes = StateField.define<number>({
  create: (state) => textBytes(state.doc),
  update: (bytes, tr) => (tr.docChanged ? bytes + changeByteDelta(tr.startState.doc, tr.changes, tr.newDoc) : bytes),
});

export function bodySizeLimit(limit: number = MAX_DOCUMENT_MARKDOWN_BYTES): Extension {
  return [
    bodyBytes,
    EditorState.transactionFilter.of((tr) => {
      if (!tr.docChanged || tr.annotation(Transaction.remote)) return tr;
      const before = tr.startState.field(bodyBytes, false);
      if (before === undefined) return tr;
      const delta = changeByteDelta(tr.startState.doc, tr.changes, tr.newDoc);
      if (delta <= 0 || before + delta <= limit) return tr;
      // The edit is replaced by its announcement: document and selection stay as they were.
      return { effects: bodySizeRefused.of({ kind: kindOf(tr), bytes: before + delta, limit }) };
    }),
  ];
}

/** "256 KiB" (the limit is a whole number of KiB; otherwise bytes). */
export function sizeWords(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

/** The sentence a person reads (and hears) when an edit was refused. */
export function refusalWords(refusal: BodySizeRefusal): string {
  const limit = sizeWords(refusal.limit);
  switch (refusal.kind) {
    case "paste":
      return `That paste would make this plan larger than ${limit}, the most a plan can hold; nothing was pasted.`;
    case "drop":
      return `That drop would make this plan larger than ${limit}, the most a plan can hold; nothing was added.`;
    case "typing":
      return `This plan is at its size limit of ${limit}; what you typed was not added.`;
    case "change":
      return `That change would make this plan larger than ${limit}, the most a plan can hold; nothing was changed.`;
  }
}
