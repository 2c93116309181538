/**
 * Tab in the plan body: indents (Shift+Tab outdents) where indenting means something in Markdown (a list item, whose
 * indentation nests it; a fenced code block; a selection over several lines), and everywhere else leaves the editor
 * like any other field, so a keyboard user is never trapped in the body. Before, Tab always indented: 24 presses
 * stayed in the body and put 46 spaces in front of the plan (UX audit).
 */
import { indentLess, indentMore } from "@codemirror/commands";
import { syntaxTree } from "@codemirror/language";
import type { EditorState } from "@codemirror/state";
import type { KeyBinding } from "@codemirror/view";

/** Syntax nodes inside which Tab indents. */
const INDENTING_NODES = new Set(["ListItem", "FencedCode", "CodeBlock"]);

export function tabIndents(state: EditorState): boolean {
  const tree = syntaxTree(state);
  for (const range of state.selection.ranges) {
    if (state.doc.lineAt(range.from).number !== state.doc.lineAt(range.to).number) return true;
    for (let node: ReturnType<typeof tree.resolveInner> | null = tree.resolveInner(range.head, -1); node; node = node.parent) {
      if (INDENTING_NODES.has(node.name)) return true;
    }
  }
  return false;
}

export const tabIndentKeys: KeyBinding = {
  key: "Tab",
  run: (view) => tabIndents(view.state) && indentMore(view),
  shift: (view) => tabIndents(view.state) && indentLess(view),
};
