import { describe, expect, it } from "vitest";
import { minimalChange, sameHeads } from "./opening-editor.js";

const apply = (from: string, c: ReturnType<typeof minimalChange>) => (c ? from.slice(0, c.from) + c.insert + from.slice(c.to) : from);

describe("minimalChange", () => {
  it("is null for equal texts and otherwise one change that keeps the common prefix and suffix", () => {
    expect(minimalChange("same", "same")).toBeNull();
    for (const [a, b] of [["abcdef", "abXdef"], ["abc", "abcd"], ["abcd", "abc"], ["", "new"], ["old", ""], ["aaaa", "aa"], ["line one\nline two", "line one\nline two, current"]]) {
      const change = minimalChange(a, b);
      expect(apply(a, change)).toBe(b);
    }
    expect(minimalChange("abcdef", "abXdef")).toEqual({ from: 2, to: 3, insert: "X" });
    // A caret before the changed span keeps its position.
    expect(minimalChange("line one\nline two", "line one\nline two, current")!.from).toBe(17);
  });
});

describe("sameHeads", () => {
  it("ignores order, not content or count", () => {
    expect(sameHeads(["a", "b"], ["b", "a"])).toBe(true);
    expect(sameHeads(["a"], ["a", "b"])).toBe(false);
    expect(sameHeads(["a"], ["b"])).toBe(false);
  });
});
