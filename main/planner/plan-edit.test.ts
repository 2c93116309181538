import { describe, expect, it } from "vitest";
import { MAX_PLAN_EDIT_CHARS, MAX_PLAN_EDIT_OPERATIONS } from "../util/limits.js";
import { planBlockSpans } from "./plan-blocks.js";
import { applyPlanEdit, editPlanInputSchema, type PlanOperation } from "./plan-edit.js";

const TEXT = "# Launch\n\nWe ship in May.\n\n\n- one\n- two\n";
const blocks = planBlockSpans(TEXT);
const ref = (index: number) => ({ index, digest: blocks[index]!.digest });
const edit = (...operations: PlanOperation[]) => applyPlanEdit(TEXT, blocks, operations);

describe("edit_plan's operations", () => {
  it("replaces a block and keeps every other byte, the blank lines between included", () => {
    expect(edit({ op: "replace", block: ref(1), markdown: "We ship in June." })).toEqual({ ok: true, markdown: "# Launch\n\nWe ship in June.\n\n\n- one\n- two\n" });
  });

  it("inserts at the start and after a block, several after one block in the batch's order", () => {
    const result = edit(
      { op: "insert", after: null, markdown: "Draft." },
      { op: "insert", after: ref(0), markdown: "First." },
      { op: "insert", after: ref(0), markdown: "Second." },
    );
    expect(result).toEqual({ ok: true, markdown: "Draft.\n\n# Launch\n\nFirst.\n\nSecond.\n\nWe ship in May.\n\n\n- one\n- two\n" });
  });

  it("moves a block after another or to the start, and deletes one", () => {
    expect(edit({ op: "move", block: ref(2), after: null })).toEqual({ ok: true, markdown: "- one\n- two\n\n# Launch\n\nWe ship in May.\n" });
    expect(edit({ op: "delete", block: ref(1) })).toEqual({ ok: true, markdown: "# Launch\n\n- one\n- two\n" });
  });

  it("refuses the whole batch when a block changed since it was read, naming it", () => {
    const stale = { index: 1, digest: "0".repeat(64) };
    expect(edit({ op: "replace", block: ref(0), markdown: "# New" }, { op: "delete", block: stale })).toMatchObject({ ok: false, refusal: "stale-block", message: expect.stringMatching(/block 1/) });
    expect(edit({ op: "delete", block: { index: 9, digest: blocks[0]!.digest } })).toMatchObject({ ok: false, refusal: "stale-block" });
  });

  it("refuses a batch that touches one block twice, or places after a block it deleted", () => {
    expect(edit({ op: "delete", block: ref(1) }, { op: "replace", block: ref(1), markdown: "x" })).toMatchObject({ ok: false, refusal: "conflicting-operations" });
    expect(edit({ op: "delete", block: ref(1) }, { op: "insert", after: ref(1), markdown: "x" })).toMatchObject({ ok: false, refusal: "conflicting-operations" });
    expect(edit({ op: "move", block: ref(1), after: ref(1) })).toMatchObject({ ok: false, refusal: "conflicting-operations" });
  });

  it("cannot empty the plan, but can write a first block into an empty one", () => {
    expect(edit({ op: "delete", block: ref(0) }, { op: "delete", block: ref(1) }, { op: "delete", block: ref(2) })).toMatchObject({ ok: false, refusal: "would-empty" });
    expect(applyPlanEdit("", [], [{ op: "insert", after: null, markdown: "# Plan" }])).toEqual({ ok: true, markdown: "# Plan\n" });
  });
});

describe("edit_plan's input", () => {
  const op = { op: "insert", after: null, markdown: "x" };
  it(`takes 1 to ${MAX_PLAN_EDIT_OPERATIONS} operations and at most ${MAX_PLAN_EDIT_CHARS} characters of Markdown`, () => {
    const parse = (input: unknown) => editPlanInputSchema.safeParse(input).success;
    expect(parse({ revision: "r", operations: [] })).toBe(false);
    expect(parse({ revision: "r", operations: Array(MAX_PLAN_EDIT_OPERATIONS).fill(op) })).toBe(true);
    expect(parse({ revision: "r", operations: Array(MAX_PLAN_EDIT_OPERATIONS + 1).fill(op) })).toBe(false);
    expect(parse({ revision: "r", operations: [{ ...op, markdown: "x".repeat(MAX_PLAN_EDIT_CHARS) }] })).toBe(true);
    expect(parse({ revision: "r", operations: [{ ...op, markdown: "x".repeat(MAX_PLAN_EDIT_CHARS / 2) }, { ...op, markdown: "x".repeat(MAX_PLAN_EDIT_CHARS / 2 + 1) }] })).toBe(false);
  });
  it("refuses unknown operations, fields, blank Markdown and malformed block references", () => {
    const parse = (operation: unknown) => editPlanInputSchema.safeParse({ revision: "r", operations: [operation] }).success;
    expect(parse({ op: "rewrite", markdown: "x" })).toBe(false);
    expect(parse({ ...op, extra: 1 })).toBe(false);
    expect(parse({ ...op, markdown: "  \n" })).toBe(false);
    expect(parse({ op: "delete", block: { index: -1, digest: "0".repeat(64) } })).toBe(false);
    expect(parse({ op: "delete", block: { index: 0, digest: "xyz" } })).toBe(false);
  });
});
