// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { ensureSyntaxTree } from "@codemirror/language";
import { EditorSelection, EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import "../test/jsdom-layout.js";
import { markdownPresentation } from "./markdown-editing.js";
import { toggleTaskAt } from "./task-checkboxes.js";

const views: EditorView[] = [];
afterEach(() => {
  while (views.length) views.pop()!.destroy();
});

function viewOf(doc: string, cursor = 0) {
  const view = new EditorView({
    state: EditorState.create({ doc, selection: EditorSelection.cursor(cursor), extensions: [markdownPresentation("Document body")] }),
    parent: document.body,
  });
  ensureSyntaxTree(view.state, view.state.doc.length, 5000);
  view.dispatch({}); // re-run decorations on the complete tree
  views.push(view);
  return view;
}

describe("live preview", () => {
  it("strikes through the text between ~~ marks, not the marks themselves", () => {
    const view = viewOf("Keep ~~drop this~~ keep\n", 0);
    const struck = [...view.contentDOM.querySelectorAll(".cm-md-strike")].map((el) => el.textContent);
    expect(struck).toEqual(["drop this"]);
  });

  it("sizes headings and dims markup except on the cursor's line", () => {
    const view = viewOf("# Title\n\nSome **bold** and `code`\n", 0);
    expect(view.contentDOM.getAttribute("aria-label")).toBe("Document body");
    const heading = view.contentDOM.querySelector(".cm-md-h1");
    expect(heading?.textContent).toBe("# Title");
    expect(view.contentDOM.querySelector(".cm-md-strong")?.textContent).toBe("**bold**");
    expect(view.contentDOM.querySelector(".cm-md-code")?.textContent).toBe("`code`");
    const dimmed = [...view.contentDOM.querySelectorAll(".cm-md-markup-dim")].map((e) => e.textContent);
    expect(dimmed).toEqual(["**", "**", "`", "`"]);
    const heading1Marks = heading!.querySelectorAll(".cm-md-markup");
    expect([...heading1Marks].every((m) => !m.classList.contains("cm-md-markup-dim"))).toBe(true);
  });

  it("renders tasks as checkboxes, and a toggle is an ordinary edit", () => {
    const view = viewOf("Intro\n- [ ] write plan\n- [x] pick name\n", 0);
    const boxes = [...view.contentDOM.querySelectorAll<HTMLInputElement>("input.cm-task-checkbox")];
    expect(boxes.map((b) => b.checked)).toEqual([false, true]);
    expect(boxes.map((b) => b.getAttribute("aria-label"))).toEqual(["write plan", "pick name"]);
    view.dispatch(toggleTaskAt(view.state, 8)!);
    expect(view.state.doc.line(2).text).toBe("- [x] write plan");
    expect(toggleTaskAt(view.state, 0)).toBeNull();
  });

  it("shows the raw marker when the cursor touches it", () => {
    const view = viewOf("- [ ] task\n", 3);
    expect(view.contentDOM.querySelector("input.cm-task-checkbox")).toBeNull();
  });
});
