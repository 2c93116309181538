/**
 * Pasting rich text (a web page, a document, a chat) into the body pastes its Markdown (html-to-markdown.ts), so its
 * links, headings and lists survive; a paste into code, or of nothing Markdown keeps, stays the plain-text paste.
 * What must stay true: the paste is one "input.paste" transaction, so the size limit, undo and sync treat it exactly
 * as a plain paste; a read-only body takes nothing.
 */
import { syntaxTree } from "@codemirror/language";
import type { EditorState, Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { htmlToMarkdown } from "./html-to-markdown.js";

const CODE_NODES = new Set(["FencedCode", "CodeBlock", "InlineCode", "CodeText"]);

/** Whether `pos` is inside code, where text is taken literally. */
export function insideCode(state: EditorState, pos: number): boolean {
  for (let node: ReturnType<ReturnType<typeof syntaxTree>["resolveInner"]> | null = syntaxTree(state).resolveInner(pos, -1); node; node = node.parent) {
    if (CODE_NODES.has(node.name)) return true;
  }
  return false;
}

export function richPaste(convert: (html: string) => string | null = htmlToMarkdown): Extension {
  return EditorView.domEventHandlers({
    paste(event, view) {
      const html = event.clipboardData?.getData("text/html");
      if (!html || view.state.readOnly) return false;
      if (view.state.selection.ranges.some((r) => insideCode(view.state, r.from))) return false;
      const markdown = convert(html);
      if (markdown === null) return false;
      event.preventDefault();
      view.dispatch({ ...view.state.replaceSelection(markdown), userEvent: "input.paste", scrollIntoView: true });
      return true;
    },
  });
}
