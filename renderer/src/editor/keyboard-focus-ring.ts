/**
 * A focus ring for the editor when the keyboard brought the focus there (Tab, Enter from the title, a shortcut), as
 * `:focus-visible` gives every other control. Browsers match `:focus-visible` on any contenteditable however it was
 * focused, so CSS alone would ring the editor after every click; the ring follows the last input instead: a key
 * press before the focus arrived shows it, a pointer press hides it. What must stay true: a click into the editor
 * never shows the ring, and the ring leaves with the focus.
 */
import { StateEffect, StateField, type Extension } from "@codemirror/state";
import { EditorView, ViewPlugin } from "@codemirror/view";

export const KEYBOARD_FOCUS_CLASS = "cm-keyboardFocus";

type Modality = "keyboard" | "pointer";

/** The last kind of input per document; listeners are installed once per document and never removed. */
const lastInput = new WeakMap<Document, Modality>();

function trackInput(doc: Document): void {
  if (lastInput.has(doc)) return;
  // Until a first input, a focus the app moved (opening a plan) shows no ring.
  lastInput.set(doc, "pointer");
  const keyboard = (event: KeyboardEvent): void => {
    // Modifier keys alone (Ctrl before a click, Shift held) are not a keyboard move of the focus.
    if (event.key !== "Control" && event.key !== "Shift" && event.key !== "Alt" && event.key !== "Meta") lastInput.set(doc, "keyboard");
  };
  const pointer = (): void => void lastInput.set(doc, "pointer");
  doc.addEventListener("keydown", keyboard, true);
  doc.addEventListener("pointerdown", pointer, true);
  doc.addEventListener("mousedown", pointer, true);
}

const setRing = StateEffect.define<boolean>();

const ring = StateField.define<boolean>({
  create: () => false,
  update: (on, tr) => tr.effects.reduce((value, effect) => (effect.is(setRing) ? effect.value : value), on),
  provide: (field) => EditorView.editorAttributes.from(field, (on): Record<string, string> => (on ? { class: KEYBOARD_FOCUS_CLASS } : {})),
});

export function keyboardFocusRing(): Extension {
  return [
    ring,
    EditorView.focusChangeEffect.of((_state, focusing) => {
      const doc = typeof document === "undefined" ? null : document;
      return setRing.of(focusing && doc !== null && lastInput.get(doc) === "keyboard");
    }),
    EditorView.domEventHandlers({
      // A click into a focused editor moves the caret by pointer: the ring goes, as a button's would.
      pointerdown: (_event, view) => {
        if (view.state.field(ring)) view.dispatch({ effects: setRing.of(false) });
        return false;
      },
    }),
    ViewPlugin.define((view) => {
      trackInput(view.dom.ownerDocument);
      return {};
    }),
  ];
}
