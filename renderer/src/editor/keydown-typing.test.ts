// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { history, undo } from "@codemirror/commands";
import { EditorState, type Extension, type Transaction } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import "../test/jsdom-layout.js";
import { keydownText, keydownTyping } from "./keydown-typing.js";

const views: EditorView[] = [];
afterEach(() => {
  for (const view of views.splice(0)) {
    view.destroy();
    view.dom.remove();
  }
});

/** An editor holding `doc` with the caret at `caret`, and every transaction it dispatched. */
function editor(doc: string, caret: number, extensions: Extension[] = []): { view: EditorView; transactions: Transaction[] } {
  const transactions: Transaction[] = [];
  const parent = document.createElement("div");
  document.body.append(parent);
  const view = new EditorView({
    parent,
    state: EditorState.create({ doc, selection: { anchor: caret }, extensions: [...extensions, keydownTyping()] }),
    dispatchTransactions: (trs, v) => {
      transactions.push(...trs);
      v.update(trs);
    },
  });
  views.push(view);
  return { view, transactions };
}

/** Presses a key on the editor; true when the editor took it (the browser will not insert anything). */
function press(view: EditorView, init: KeyboardEventInit): boolean {
  const event = new KeyboardEvent("keydown", { bubbles: true, cancelable: true, ...init });
  view.contentDOM.dispatchEvent(event);
  return event.defaultPrevented;
}

describe("keydownText", () => {
  const key = (init: KeyboardEventInit) => new KeyboardEvent("keydown", init);

  it("is the key's text for one printable code point, with or without Shift", () => {
    expect(keydownText(key({ key: "a" }), false)).toBe("a");
    expect(keydownText(key({ key: "A", shiftKey: true }), false)).toBe("A");
    expect(keydownText(key({ key: " " }), false)).toBe(" ");
    expect(keydownText(key({ key: "ж" }), false)).toBe("ж");
    expect(keydownText(key({ key: "😀" }), false)).toBe("😀");
  });

  it("is null for named keys, shortcuts, composed characters and input methods", () => {
    for (const init of [
      { key: "Enter" },
      { key: "Tab" },
      { key: "Backspace" },
      { key: "Dead" },
      { key: "Process", keyCode: 229 },
      { key: "a", keyCode: 229 },
      { key: "a", isComposing: true },
      { key: "a", ctrlKey: true },
      { key: "@", ctrlKey: true, altKey: true },
      { key: "å", altKey: true },
      { key: "a", metaKey: true },
      { key: "\u007f" },
      { key: "\u0085" },
      { key: "ab" },
    ] satisfies KeyboardEventInit[]) {
      expect(keydownText(key(init), false), JSON.stringify(init)).toBeNull();
    }
    expect(keydownText(key({ key: "e" }), true)).toBeNull();
  });
});

describe("typing at keydown", () => {
  it("inserts the key at the caret in the keydown itself, as an ordinary typed edit", () => {
    const { view, transactions } = editor("ac", 1);
    expect(press(view, { key: "b" })).toBe(true);
    expect(view.state.doc.toString()).toBe("abc");
    expect(view.state.selection.main.head).toBe(2);
    expect(transactions.map((tr) => tr.isUserEvent("input.type"))).toEqual([true]);
  });

  it("replaces the selection", () => {
    const { view } = editor("hello world", 0);
    view.dispatch({ selection: { anchor: 6, head: 11 } });
    press(view, { key: "W", shiftKey: true });
    expect(view.state.doc.toString()).toBe("hello W");
  });

  it("leaves shortcuts, named keys and input methods to the browser and the keymaps", () => {
    const { view } = editor("x", 1);
    for (const init of [{ key: "a", ctrlKey: true }, { key: "Enter" }, { key: "a", isComposing: true }, { key: "Process", keyCode: 229 }]) {
      expect(press(view, init), JSON.stringify(init)).toBe(false);
    }
    expect(view.state.doc.toString()).toBe("x");
  });

  it("leaves the key after a dead key to the browser, even with Shift between them, then types again", () => {
    const { view } = editor("", 0);
    expect(press(view, { key: "Dead" })).toBe(false);
    expect(press(view, { key: "Shift", shiftKey: true })).toBe(false);
    expect(press(view, { key: "E", shiftKey: true })).toBe(false);
    expect(view.state.doc.toString()).toBe("");
    expect(press(view, { key: "x" })).toBe(true);
    expect(view.state.doc.toString()).toBe("x");
  });

  it("never types into a read-only or non-editable editor", () => {
    for (const extension of [EditorState.readOnly.of(true), EditorView.editable.of(false)]) {
      const { view } = editor("x", 0, [extension]);
      expect(press(view, { key: "a" })).toBe(false);
      expect(view.state.doc.toString()).toBe("x");
    }
  });

  it("lets a keymap bound to a printable key win", () => {
    let ran = 0;
    const { view } = editor("", 0, [keymap.of([{ key: "q", run: () => ++ran > 0 }])]);
    expect(press(view, { key: "q" })).toBe(true);
    expect(ran).toBe(1);
    expect(view.state.doc.toString()).toBe("");
  });

  it("goes through the editor's input handlers, as the browser's insertion would", () => {
    // An input handler as closeBrackets() registers one: "(" becomes "()" with the caret between.
    const closeParen = EditorView.inputHandler.of((view, from, to, text) => {
      if (text !== "(") return false;
      view.dispatch({ changes: { from, to, insert: "()" }, selection: { anchor: from + 1 }, userEvent: "input.type" });
      return true;
    });
    const { view } = editor("", 0, [closeParen]);
    press(view, { key: "(" });
    expect(view.state.doc.toString()).toBe("()");
    expect(view.state.selection.main.head).toBe(1);
  });

  it("keeps a run of typing one undo step", () => {
    const { view } = editor("", 0, [history()]);
    for (const key of "plan") press(view, { key });
    expect(view.state.doc.toString()).toBe("plan");
    undo(view);
    expect(view.state.doc.toString()).toBe("");
  });

  it("types nothing when a filter refuses the edit, and the browser does not insert it either", () => {
    const { view } = editor("full", 4, [EditorState.transactionFilter.of((tr) => (tr.docChanged ? [] : tr))]);
    expect(press(view, { key: "x" })).toBe(true);
    expect(view.state.doc.toString()).toBe("full");
  });
});
