/**
 * CodeMirror 6 in jsdom, for measuring first paint in a Node process: installs the browser globals CodeMirror reads
 * at import time, then builds an EditorView the way the app's editor would (Markdown language, read-only until the
 * document is ready). jsdom has no layout, so "paint" here means the view's DOM is built and attached; the
 * keystroke suite measures real paints in Chromium.
 */
import { JSDOM } from "jsdom";

export interface PaintedEditor {
  /** Makes the read-only snapshot editor editable, replacing its text first when the snapshot was stale. */
  makeEditable(text?: string): void;
  lineCount(): number;
  destroy(): void;
}

export type PaintText = (text: string, editable: boolean) => PaintedEditor;

/** Installs jsdom globals and loads CodeMirror; call once, before any other CodeMirror import. */
export async function loadJsdomEditor(): Promise<PaintText> {
  const dom = new JSDOM("<!doctype html><html><body><div id=editor></div></body></html>", { pretendToBeVisual: true });
  const win = dom.window as unknown as Window & typeof globalThis;
  const g = globalThis as Record<string, unknown>;
  for (const key of ["window", "document", "navigator", "MutationObserver", "requestAnimationFrame", "cancelAnimationFrame", "getComputedStyle", "HTMLElement", "Node", "Element", "Text", "DOMParser"] as const) {
    if (key === "navigator") Object.defineProperty(globalThis, "navigator", { value: win.navigator, configurable: true });
    else g[key] = (win as unknown as Record<string, unknown>)[key];
  }
  // jsdom has no layout: CodeMirror measures text through Range rects, which jsdom lacks.
  const zeroRect = () => ({ x: 0, y: 0, top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0, toJSON() {} });
  const rangeProto = win.Range.prototype as unknown as Record<string, unknown>;
  rangeProto.getClientRects = () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] });
  rangeProto.getBoundingClientRect = zeroRect;
  const { EditorState, Compartment } = await import("@codemirror/state");
  const { EditorView } = await import("@codemirror/view");
  const { markdown } = await import("@codemirror/lang-markdown");
  const parent = win.document.getElementById("editor")!;
  return (text, editable) => {
    const mode = new Compartment();
    const modeFor = (on: boolean) => [EditorState.readOnly.of(!on), EditorView.editable.of(on)];
    const view = new EditorView({
      state: EditorState.create({ doc: text, extensions: [markdown(), mode.of(modeFor(editable))] }),
      parent,
    });
    return {
      makeEditable(replacement) {
        const changes = replacement === undefined ? undefined : { from: 0, to: view.state.doc.length, insert: replacement };
        view.dispatch({ changes, effects: mode.reconfigure(modeFor(true)) });
      },
      lineCount: () => view.state.doc.lines,
      destroy: () => view.destroy(),
    };
  };
}
