import { describe, expect, it } from "vitest";
import { searchResultWords } from "./Sidebar.js";

describe("the search's spoken result", () => {
  it("says how many documents match the query, and nothing without one or while searching", () => {
    expect(searchResultWords("", 5, false)).toBe("");
    expect(searchResultWords("  ", 5, false)).toBe("");
    expect(searchResultWords("plan", 3, true)).toBe("");
    expect(searchResultWords("plan", 0, false)).toBe("No documents match “plan”");
    expect(searchResultWords("plan", 1, false)).toBe("1 document matches “plan”");
    expect(searchResultWords(" plan ", 3, false)).toBe("3 documents match “plan”");
  });
});
