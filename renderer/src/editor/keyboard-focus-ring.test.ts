// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import "../test/jsdom-layout.js";
import { KEYBOARD_FOCUS_CLASS, keyboardFocusRing } from "./keyboard-focus-ring.js";

const views: EditorView[] = [];
afterEach(() => {
  for (const view of views.splice(0)) view.destroy();
  (document.activeElement as HTMLElement | null)?.blur();
});

function editor(): EditorView {
  const view = new EditorView({ parent: document.body, state: EditorState.create({ doc: "plan", extensions: [keyboardFocusRing()] }) });
  views.push(view);
  return view;
}

function ringed(view: EditorView): boolean {
  return view.dom.classList.contains(KEYBOARD_FOCUS_CLASS);
}

/** Focus as the browser delivers it; CodeMirror has taken it in once the editor is marked focused. */
async function focus(view: EditorView): Promise<void> {
  view.contentDOM.focus();
  await vi.waitFor(() => expect(view.dom.classList.contains("cm-focused")).toBe(true));
}

function key(name = "Tab"): void {
  document.dispatchEvent(new KeyboardEvent("keydown", { key: name, bubbles: true }));
}

function pointer(target: EventTarget = document.body): void {
  target.dispatchEvent(new MouseEvent("mousedown", { bubbles: true }));
}

describe("the editor's keyboard focus ring", () => {
  it("shows when a key press brought the focus, and leaves with the focus", async () => {
    const view = editor();
    key();
    await focus(view);
    expect(ringed(view)).toBe(true);
    view.contentDOM.blur();
    await vi.waitFor(() => expect(view.dom.classList.contains("cm-focused")).toBe(false));
    expect(ringed(view)).toBe(false);
  });

  it("does not show when a pointer press brought the focus", async () => {
    const view = editor();
    key();
    pointer(view.contentDOM);
    await focus(view);
    expect(ringed(view)).toBe(false);
  });

  it("does not show for a focus the app moved before any input", async () => {
    const view = editor();
    await focus(view);
    expect(ringed(view)).toBe(false);
  });

  it("a modifier key alone (Ctrl before a click) does not count as the keyboard", async () => {
    const view = editor();
    pointer();
    key("Control");
    await focus(view);
    expect(ringed(view)).toBe(false);
  });

  it("goes when the person clicks into the focused editor", async () => {
    const view = editor();
    key();
    await focus(view);
    expect(ringed(view)).toBe(true);
    view.contentDOM.dispatchEvent(new MouseEvent("pointerdown", { bubbles: true }));
    expect(ringed(view)).toBe(false);
  });
});
