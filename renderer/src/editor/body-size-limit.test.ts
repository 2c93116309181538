import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { EditorState, Transaction, type TransactionSpec } from "@codemirror/state";
import { MAX_DOCUMENT_MARKDOWN_BYTES } from "../../../shared/limits.js";
import { utf8Bytes } from "../../../shared/utf8.js";
import { bodyBytes, bodySizeLimit, bodySizeRefused, refusalWords, type BodySizeRefusal } from "./body-size-limit.js";

const LIMIT = MAX_DOCUMENT_MARKDOWN_BYTES;

/** Applies a spec the way a view would; returns the new state and what was refused, if anything. */
function apply(state: EditorState, spec: TransactionSpec): { state: EditorState; refused: BodySizeRefusal | null } {
  const tr: Transaction = state.update(spec);
  const refused = tr.effects.find((e) => e.is(bodySizeRefused))?.value ?? null;
  return { state: tr.state, refused };
}

const start = (doc: string, limit = LIMIT) => EditorState.create({ doc, extensions: bodySizeLimit(limit) });

describe("the body's running byte count", () => {
  it("always equals the UTF-8 size of the whole text, through any edits (surrogate pairs split and joined included)", () => {
    const unit = fc.constantFrom("a", "é", "€", "\n", "😀", "\ud83d", "\ude00", "\r\n");
    const text = fc.array(unit, { maxLength: 12 }).map((u) => u.join(""));
    const edit = fc.record({ a: fc.nat(), b: fc.nat(), insert: text });
    fc.assert(
      fc.property(text, fc.array(fc.array(edit, { minLength: 1, maxLength: 3 }), { maxLength: 8 }), (initial, steps) => {
        let state = start(initial, Number.MAX_SAFE_INTEGER);
        for (const step of steps) {
          // Several changes in one transaction, given in the start document's positions (non-overlapping).
          const points = step.flatMap(({ a, b }) => [a % (state.doc.length + 1), b % (state.doc.length + 1)]).sort((x, y) => x - y);
          const changes = step.map(({ insert }, i) => ({ from: points[2 * i], to: points[2 * i + 1], insert }));
          state = state.update({ changes }).state;
          if (state.field(bodyBytes) !== utf8Bytes(state.doc.toString())) return false;
        }
        return true;
      }),
    );
  });
});

describe(`MAX_DOCUMENT_MARKDOWN_BYTES (${LIMIT}) in the editor`, () => {
  it("accepts typing up to the limit and refuses the byte after it, leaving the text as it was", () => {
    let state = start("a".repeat(LIMIT - 1));
    const atBound = apply(state, { changes: { from: LIMIT - 1, insert: "b" }, userEvent: "input.type" });
    expect(atBound.refused).toBeNull();
    state = atBound.state;
    expect(state.doc.length).toBe(LIMIT);
    expect(state.field(bodyBytes)).toBe(LIMIT);

    const above = apply(state, { changes: { from: 0, insert: "c" }, selection: { anchor: 1 }, userEvent: "input.type" });
    expect(above.refused).toEqual({ kind: "typing", bytes: LIMIT + 1, limit: LIMIT });
    expect(above.state.doc).toBe(state.doc);
    expect(above.state.selection.main.head).toBe(state.selection.main.head);
  });

  it("counts UTF-8 bytes, not characters: one byte short of the limit, a two-byte letter is refused", () => {
    const state = start("a".repeat(LIMIT - 1));
    expect(apply(state, { changes: { from: 0, insert: "é" }, userEvent: "input.type" }).refused?.bytes).toBe(LIMIT + 1);
    expect(apply(state, { changes: { from: 0, to: 1, insert: "é" }, userEvent: "input.type" }).refused).toBeNull();
  });

  it("refuses a 1 MB paste as a paste, and lets deleting through even above the limit", () => {
    const state = start("# Plan\n");
    const paste = apply(state, { changes: { from: 7, insert: "x".repeat(1024 * 1024) }, userEvent: "input.paste" });
    expect(paste.refused?.kind).toBe("paste");
    expect(paste.state.doc.toString()).toBe("# Plan\n");

    const big = start("y".repeat(LIMIT + 10));
    const shrunk = apply(big, { changes: { from: 0, to: 5, insert: "z" }, userEvent: "delete" });
    expect(shrunk.refused).toBeNull();
    expect(shrunk.state.field(bodyBytes)).toBe(LIMIT + 6);
    // Still above: anything that grows it is refused.
    expect(apply(shrunk.state, { changes: { from: 0, insert: "z" }, userEvent: "input.type" }).refused).not.toBeNull();
  });

  it("never refuses other people's edits (the mirror's remote transactions), so the editor keeps matching the document", () => {
    const state = start("a".repeat(LIMIT));
    const remote = apply(state, { changes: { from: 0, insert: "REMOTE " }, annotations: Transaction.remote.of(true) });
    expect(remote.refused).toBeNull();
    expect(remote.state.doc.length).toBe(LIMIT + 7);
    expect(remote.state.field(bodyBytes)).toBe(LIMIT + 7);
  });

  it("says in words what happened and what the limit is", () => {
    expect(refusalWords({ kind: "paste", bytes: 1, limit: LIMIT })).toBe(
      "That paste would make this plan larger than 256 KiB, the most a plan can hold; nothing was pasted.",
    );
    expect(refusalWords({ kind: "typing", bytes: 1, limit: LIMIT })).toBe("This plan is at its size limit of 256 KiB; what you typed was not added.");
  });
});
