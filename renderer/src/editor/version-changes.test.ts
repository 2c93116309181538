import { describe, expect, it } from "vitest";
import { changedLines } from "./version-changes.js";

describe("changedLines", () => {
  it("marks lines added or changed between the common start and end", () => {
    expect(changedLines("# Plan\none\ntwo\nend", "# Plan\none\nTWO\nthree\nend")).toEqual([3, 4]);
  });

  it("marks nothing for the same text, and nothing without a version before (the first version is all new)", () => {
    expect(changedLines("a\nb", "a\nb")).toEqual([]);
    expect(changedLines(null, "a\nb")).toEqual([]);
  });

  it("does not mark a line that only moved within the changed middle, nor blank lines", () => {
    expect(changedLines("x\na\nb\ny", "x\nb\n\na\nnew\ny")).toEqual([5]);
  });

  it("marks a repeated line once per extra copy", () => {
    expect(changedLines("- item\n", "- item\n- item\n")).toEqual([2]);
  });
});
