// @vitest-environment jsdom
/** Task checkboxes: a click toggles the marker in an editable editor, and changes nothing at all in a read-only one. */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent } from "@testing-library/react";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import "../test/jsdom-layout.js";
import { markdownPresentation } from "./markdown-editing.js";
import { createMarkdownViewer } from "./plan-editor.js";

const views: EditorView[] = [];
afterEach(() => {
  while (views.length) {
    const view = views.pop()!;
    view.dom.parentElement?.remove();
    view.destroy();
  }
});

const TEXT = "# Tasks\n\n- [ ] write\n- [x] read\n";
const parent = () => document.body.appendChild(document.createElement("div"));
const boxes = (view: EditorView) => [...view.dom.querySelectorAll<HTMLInputElement>("input.cm-task-checkbox")];

describe("task checkboxes", () => {
  it("toggle the task marker in an editable editor", () => {
    const view = new EditorView({ parent: parent(), state: EditorState.create({ doc: TEXT, extensions: markdownPresentation("Body") }) });
    views.push(view);
    expect(boxes(view)).toHaveLength(2);
    fireEvent.mouseDown(boxes(view)[0]);
    expect(view.state.doc.toString()).toBe("# Tasks\n\n- [x] write\n- [x] read\n");
    fireEvent.keyDown(boxes(view)[1], { key: " " });
    expect(view.state.doc.toString()).toBe("# Tasks\n\n- [x] write\n- [ ] read\n");
  });

  it("change nothing in the read-only version viewer: not on click, Space or Enter, not even their own look", () => {
    const view = createMarkdownViewer(parent(), TEXT, "Version content");
    views.push(view);
    const [todo, done] = boxes(view);
    expect(todo.disabled && done.disabled).toBe(true);
    expect(todo.getAttribute("aria-label")).toBe("Task not done");
    for (const box of [todo, done]) {
      fireEvent.mouseDown(box);
      fireEvent.click(box);
      fireEvent.keyDown(box, { key: " " });
      fireEvent.keyDown(box, { key: "Enter" });
    }
    expect(view.state.doc.toString()).toBe(TEXT);
    const [todoAfter, doneAfter] = boxes(view);
    expect([todoAfter.checked, doneAfter.checked]).toEqual([false, true]);
  });
});
