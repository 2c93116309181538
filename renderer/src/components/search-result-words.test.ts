import { describe, expect, it } from "vitest";
import { emptyListWords, searchResultWords } from "./Sidebar.js";

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

describe("the empty list's words", () => {
  it("say where archived documents are when only they exist, and 'none yet' only when there are none", () => {
    expect(emptyListWords("", false, 0)).toBe("No documents yet. Create one to start planning.");
    expect(emptyListWords("", false, 1)).toBe("No documents in use. 1 archived document is under “Show archived”.");
    expect(emptyListWords("", false, 3)).toBe("No documents in use. 3 archived documents are under “Show archived”.");
    expect(emptyListWords("plan", false, 0)).toBe("No documents match.");
    expect(emptyListWords("plan", false, 1)).toBe("No documents in use match. 1 archived document does, under “Show archived”.");
    expect(emptyListWords("plan", false, 3)).toBe("No documents in use match. 3 archived documents do, under “Show archived”.");
    expect(emptyListWords("plan", true, 0)).toBe("No documents match.");
    expect(emptyListWords("", true, 0)).toBe("Nothing archived.");
  });
});
