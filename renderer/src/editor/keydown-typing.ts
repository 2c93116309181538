/**
 * Types a plain printable key at keydown, through the browser's own insertion (`execCommand("insertText")`), instead
 * of leaving it to the key's text event, which the browser sends as a second input event once the page has answered
 * the keydown. Measured with the keystroke bench's plan-editor row (100 KB, two alternating pairs of runs):
 * keydown -> after paint p50 16.6 / 16.8 ms with it, 21.4 / 19.7 ms without; p95 26.1 / 25.3 against 49.4 / 28.4;
 * keydown -> DOM updated unchanged (p50 6.1 / 5.7 against 6.2 / 6.1).
 * Why the browser's insertion and not a CodeMirror transaction: after a dispatched insert CodeMirror moves the DOM
 * selection itself, and Chromium lays the page out synchronously to do so (measured: DOM p50 8.5 ms against 6.1);
 * the browser's insertion moves its caret as part of the edit, and CodeMirror reads the change from the DOM exactly
 * as it does for a typed key (input handlers, history, the size limit and the Automerge binding see an ordinary
 * "input.type" edit). Where execCommand is missing or refuses, the transaction is used.
 *
 * What must stay true:
 * - Only keys whose whole effect is "insert this text" take this path: one printable code point, no Ctrl, Alt or Meta
 *   (AltGr and macOS Option compose characters of their own), not during an input method's composition, not the key
 *   after a dead key (some platforms compose "´" + "e" without composition events), never in a read-only editor.
 *   Everything else goes to the browser as before.
 * - It runs after every keymap (Prec.lowest), so a binding on a printable key still wins.
 */
import { Prec, type Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";

/** keyCode browsers report for keys an input method is processing. */
const IME_PROCESSING_KEY_CODE = 229;

/** Keys that only modify the next one: pressing Shift between a dead key and its letter keeps them composing. */
const MODIFIER_KEYS = new Set(["Shift", "Control", "Alt", "AltGraph", "Meta", "CapsLock", "OS", "Fn"]);

/** The text a keydown would insert when it may be typed at keydown, else null. */
export function keydownText(event: KeyboardEvent, afterDeadKey: boolean): string | null {
  if (afterDeadKey || event.isComposing || event.keyCode === IME_PROCESSING_KEY_CODE) return null;
  if (event.ctrlKey || event.altKey || event.metaKey) return null;
  if (event.getModifierState?.("AltGraph")) return null;
  const { key } = event;
  const points = [...key];
  if (points.length !== 1) return null;
  const code = key.codePointAt(0)!;
  // C0 and C1 controls and DEL never come as text from a key.
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return null;
  return key;
}

/** The browser's own insertion at its caret; false when it did not insert (no execCommand, or it refused). */
function insertNatively(view: EditorView, text: string): boolean {
  const doc = view.contentDOM.ownerDocument;
  if (typeof doc.execCommand !== "function") return false;
  try {
    return doc.execCommand("insertText", false, text);
  } catch {
    return false;
  }
}

/** The same edit as a CodeMirror transaction, through the editor's input handlers. */
function typeText(view: EditorView, text: string): void {
  const { from, to } = view.state.selection.main;
  const defaultInsert = () => view.state.update(view.state.replaceSelection(text), { userEvent: "input.type", scrollIntoView: true });
  if (!view.state.facet(EditorView.inputHandler).some((handler) => handler(view, from, to, text, defaultInsert))) {
    view.dispatch(defaultInsert());
  }
}

export function keydownTyping(): Extension {
  // Per editor: whether the last keydown was a dead key (the next one composes with it).
  let afterDeadKey = false;
  return Prec.lowest(
    EditorView.domEventHandlers({
      keydown(event, view) {
        const text = keydownText(event, afterDeadKey);
        if (!MODIFIER_KEYS.has(event.key)) afterDeadKey = event.key === "Dead";
        if (text === null || view.composing || view.compositionStarted) return false;
        if (view.state.readOnly || !view.state.facet(EditorView.editable)) return false;
        if (!insertNatively(view, text)) typeText(view, text);
        return true;
      },
    }),
  );
}
