// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { ensureSyntaxTree } from "@codemirror/language";
import { markdown, markdownLanguage } from "@codemirror/lang-markdown";
import { EditorState } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import "../test/jsdom-layout.js";
import { tabIndentKeys } from "./tab-indent.js";

const views: EditorView[] = [];
afterEach(() => {
  for (const view of views.splice(0)) view.destroy();
});

function editor(doc: string, anchor: number, head = anchor): EditorView {
  const view = new EditorView({
    parent: document.body,
    state: EditorState.create({ doc, selection: { anchor, head }, extensions: [markdown({ base: markdownLanguage }), keymap.of([tabIndentKeys])] }),
  });
  ensureSyntaxTree(view.state, doc.length, 5000);
  views.push(view);
  return view;
}

function press(view: EditorView, shiftKey = false): boolean {
  const event = new KeyboardEvent("keydown", { key: "Tab", shiftKey, bubbles: true, cancelable: true });
  view.contentDOM.dispatchEvent(event);
  return event.defaultPrevented;
}

describe("Tab in the plan body", () => {
  it("nests a list item, and Shift+Tab brings it back", () => {
    const doc = "- one\n- two";
    const view = editor(doc, doc.length);
    expect(press(view)).toBe(true);
    expect(view.state.doc.toString()).toMatch(/^- one\n\s+- two$/);
    expect(press(view, true)).toBe(true);
    expect(view.state.doc.toString()).toBe(doc);
  });

  it("indents inside a fenced code block and over a selection of several lines", () => {
    const code = "```\nlet a = 1\n```";
    const inCode = editor(code, 6);
    expect(press(inCode)).toBe(true);
    expect(inCode.state.doc.line(2).text).toMatch(/^\s+let a = 1$/);
    const lines = editor("first\nsecond", 0, 12);
    expect(press(lines)).toBe(true);
    expect(lines.state.doc.toString()).toMatch(/^\s+first\n\s+second$/);
  });

  it("in a paragraph or heading leaves the editor as in any field (the keydown is not taken) and changes nothing", () => {
    for (const doc of ["# Plan", "Just a sentence."]) {
      const view = editor(doc, 3);
      expect(press(view)).toBe(false);
      expect(press(view, true)).toBe(false);
      expect(view.state.doc.toString()).toBe(doc);
    }
  });
});
