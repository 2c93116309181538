// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import "../test/jsdom-layout.js";
import { changesWords, markChanges, versionChanges } from "./version-changes.js";

const changedLines = (before: string | null, after: string) => versionChanges(before, after).changed;

describe("versionChanges: lines added or changed", () => {
  it("marks lines added or changed between the common start and end", () => {
    expect(changedLines("# Plan\none\ntwo\nend", "# Plan\none\nTWO\nthree\nend")).toEqual([3, 4]);
  });

  it("marks nothing for the same text, and nothing without a version before (the first version is all new)", () => {
    expect(versionChanges("a\nb", "a\nb")).toEqual({ changed: [], removed: [], removedAfterLine: 2 });
    expect(versionChanges(null, "a\nb")).toEqual({ changed: [], removed: [], removedAfterLine: 0 });
  });

  it("does not mark a line that only moved within the changed middle, nor blank lines", () => {
    expect(changedLines("x\na\nb\ny", "x\nb\n\na\nnew\ny")).toEqual([5]);
  });

  it("marks a repeated line once per extra copy", () => {
    expect(changedLines("- item\n", "- item\n- item\n")).toEqual([2]);
  });
});

describe("versionChanges: lines removed", () => {
  it("finds a deleted paragraph and where it was", () => {
    expect(versionChanges("# Plan\nkeep\ngone one\ngone two\nend", "# Plan\nkeep\nend")).toEqual({
      changed: [],
      removed: ["gone one", "gone two"],
      removedAfterLine: 2,
    });
  });

  it("counts a changed line as changed, and only what has no counterpart as removed (blank lines aside)", () => {
    expect(versionChanges("a\nold\n\nextra\nz", "a\nnew\nz")).toEqual({ changed: [2], removed: ["old", "extra"], removedAfterLine: 1 });
    expect(versionChanges("x\n- item\n- item\ny", "x\n- item\ny").removed).toEqual(["- item"]);
  });

  it("places lines removed from the very start before the first line", () => {
    expect(versionChanges("intro\n# Plan", "# Plan")).toEqual({ changed: [], removed: ["intro"], removedAfterLine: 0 });
  });
});

describe("markChanges in a view", () => {
  function view(doc: string, before: string): HTMLElement {
    const parent = document.createElement("div");
    document.body.append(parent);
    new EditorView({ parent, state: EditorState.create({ doc, extensions: [markChanges(versionChanges(before, doc))] }) });
    return parent;
  }

  it("tints the changed lines and shows removed lines struck through below the line they followed", () => {
    const parent = view("# Plan\nkeep\nNEW\nend", "# Plan\nkeep\nold\ngone\nend");
    const lines = [...parent.querySelectorAll(".cm-content > *")];
    const texts = lines.map((el) => (el.classList.contains("cm-version-removed") ? `removed:${[...el.querySelectorAll("del")].map((d) => d.textContent).join("|")}` : el.textContent));
    expect(texts).toEqual(["# Plan", "keep", "removed:old|gone", "NEW", "end"]);
    expect(parent.querySelector(".cm-version-changed")?.textContent).toBe("NEW");
    expect(parent.querySelector(".cm-version-removed")?.getAttribute("aria-label")).toBe("2 lines removed by this version");
  });
});

describe("changesWords", () => {
  it("says what the version did, in the banner's words", () => {
    expect(changesWords(versionChanges("a", "a\nb"))).toBe("1 line this version added or changed, marked");
    expect(changesWords(versionChanges("a\nb\nc", "a"))).toBe("2 lines this version removed, shown struck through");
    expect(changesWords(versionChanges("a\nb\nc", "a\nB"))).toBe("1 line added or changed, marked; 2 lines replaced or removed, struck through");
    expect(changesWords(versionChanges("a", "a"))).toBeNull();
    expect(changesWords(versionChanges(null, "a"))).toBeNull();
  });
});
