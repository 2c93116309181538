// @vitest-environment jsdom
/** Task checkboxes: a click toggles the marker in an editable editor, and changes nothing at all in a read-only one. */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent } from "@testing-library/react";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import "../test/jsdom-layout.js";
import { markdownPresentation } from "./markdown-editing.js";
import { createMarkdownViewer } from "./plan-editor.js";
import { TASK_LABEL_MAX_CHARS, toggleTasksInSelection } from "./task-checkboxes.js";

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
    expect(todo.getAttribute("aria-label")).toBe("write");
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

  it("are named by their task's words, are not Tab stops, and keep the focus when toggled", () => {
    const long = "x".repeat(TASK_LABEL_MAX_CHARS + 10);
    const view = new EditorView({ parent: parent(), state: EditorState.create({ doc: `- [ ] write spec\n- [ ] ${long}\n- [ ] \n`, extensions: markdownPresentation("Body") }) });
    views.push(view);
    const [first, second, third] = boxes(view);
    expect(first.getAttribute("aria-label")).toBe("write spec");
    expect(second.getAttribute("aria-label")).toBe(`${long.slice(0, TASK_LABEL_MAX_CHARS - 1)}…`);
    expect(third.getAttribute("aria-label")).toBe("Task");
    expect(first.tabIndex).toBe(-1);
    first.focus();
    fireEvent.keyDown(first, { key: " " });
    expect(view.state.doc.line(1).text).toBe("- [x] write spec");
    expect(boxes(view)[0]).toBe(first);
    expect(first.checked).toBe(true);
    expect(document.activeElement).toBe(first);
  });

  it("Mod+Enter toggles the tasks of the selected lines, and does nothing on lines with none", () => {
    const doc = "- [ ] one\nplain\n- [x] two\n1. [ ] three";
    const view = new EditorView({ parent: parent(), state: EditorState.create({ doc, selection: { anchor: 2, head: doc.length }, extensions: markdownPresentation("Body") }) });
    views.push(view);
    expect(toggleTasksInSelection(view)).toBe(true);
    expect(view.state.doc.toString()).toBe("- [x] one\nplain\n- [ ] two\n1. [x] three");
    view.dispatch({ selection: { anchor: doc.indexOf("plain") + 1 } });
    expect(toggleTasksInSelection(view)).toBe(false);
    expect(view.state.doc.toString()).toBe("- [x] one\nplain\n- [ ] two\n1. [x] three");
  });
});
