/**
 * Live-preview styling for Markdown: the text stays plain Markdown (it is the canonical content), and decorations
 * make it read like a rendered page. Headings are sized, emphasis/strong/code/links styled, code blocks shaded, and
 * the markup characters (#, *, `, [](), >, list markers) are dimmed except on lines holding the cursor, where a
 * person is editing them. What must stay true: decorations never change the text.
 */
import { syntaxTree } from "@codemirror/language";
import type { EditorState, Extension, Range } from "@codemirror/state";
import { Decoration, EditorView, ViewPlugin, type DecorationSet, type ViewUpdate } from "@codemirror/view";

const MARKUP = new Set(["HeaderMark", "EmphasisMark", "CodeMark", "LinkMark", "QuoteMark", "StrikethroughMark", "CodeInfo"]);
const INLINE_CLASS: Record<string, string> = {
  Emphasis: "cm-md-em",
  StrongEmphasis: "cm-md-strong",
  InlineCode: "cm-md-code",
  Link: "cm-md-link",
  URL: "cm-md-url",
  Strikethrough: "cm-md-strike",
};

const markupDim = Decoration.mark({ class: "cm-md-markup cm-md-markup-dim" });
const markupActive = Decoration.mark({ class: "cm-md-markup" });
const listMark = Decoration.mark({ class: "cm-md-list-mark" });
/** How a link opens, on hover (link-open.ts): nothing else in the page says it. */
const MOD = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform) ? "⌘" : "Ctrl";
const LINK_HINT = `${MOD}+click or ${MOD}+Enter to open`;
const inlineMarks = Object.fromEntries(
  Object.entries(INLINE_CLASS).map(([name, cls]) => [name, Decoration.mark(name === "Link" || name === "URL" ? { class: cls, attributes: { title: LINK_HINT } } : { class: cls })]),
);
const headingLines = [1, 2, 3, 4, 5, 6].map((level) => Decoration.line({ class: `cm-md-heading cm-md-h${level}` }));
const quoteLine = Decoration.line({ class: "cm-md-quote" });
const codeLine = Decoration.line({ class: "cm-md-codeblock" });
const codeLineFirst = Decoration.line({ class: "cm-md-codeblock cm-md-codeblock-first" });
const codeLineLast = Decoration.line({ class: "cm-md-codeblock cm-md-codeblock-last" });
const codeLineOnly = Decoration.line({ class: "cm-md-codeblock cm-md-codeblock-first cm-md-codeblock-last" });
const ruleLine = Decoration.line({ class: "cm-md-hr" });

/** Line numbers (1-based) that hold a selection head or range: their markup is shown at full strength. */
export function activeLines(state: EditorState): Set<number> {
  const lines = new Set<number>();
  for (const range of state.selection.ranges) {
    const first = state.doc.lineAt(range.from).number;
    const last = state.doc.lineAt(range.to).number;
    for (let n = first; n <= last; n++) lines.add(n);
  }
  return lines;
}

export function buildLivePreview(state: EditorState, visible: readonly { from: number; to: number }[]): DecorationSet {
  const decorations: Range<Decoration>[] = [];
  const active = activeLines(state);
  const doc = state.doc;
  for (const { from, to } of visible) {
    syntaxTree(state).iterate({
      from,
      to,
      enter: (node) => {
        const name = node.name;
        const heading = /^(?:ATX|Setext)Heading(\d)$/.exec(name);
        if (heading) {
          const level = Number(heading[1]);
          for (let pos = node.from; pos <= node.to; ) {
            const line = doc.lineAt(pos);
            decorations.push(headingLines[level - 1].range(line.from));
            pos = line.to + 1;
          }
        } else if (name === "Blockquote") {
          for (let pos = node.from; pos <= node.to; ) {
            const line = doc.lineAt(pos);
            decorations.push(quoteLine.range(line.from));
            pos = line.to + 1;
          }
        } else if (name === "FencedCode" || name === "CodeBlock") {
          const first = doc.lineAt(node.from).number;
          const last = doc.lineAt(node.to).number;
          for (let n = first; n <= last; n++) {
            const deco = first === last ? codeLineOnly : n === first ? codeLineFirst : n === last ? codeLineLast : codeLine;
            decorations.push(deco.range(doc.line(n).from));
          }
        } else if (name === "HorizontalRule") {
          decorations.push(ruleLine.range(doc.lineAt(node.from).from));
        } else if (MARKUP.has(name) && node.to > node.from) {
          const onActiveLine = active.has(doc.lineAt(node.from).number);
          decorations.push((onActiveLine ? markupActive : markupDim).range(node.from, node.to));
        } else if (name === "ListMark" && node.to > node.from) {
          decorations.push(listMark.range(node.from, node.to));
        } else if (name === "Strikethrough" && node.to > node.from) {
          // Struck between its ~~ marks only: a line through the markers too read as if they were struck text.
          const inner = innerRange(node.node.getChildren("StrikethroughMark"), node.from, node.to);
          if (inner.to > inner.from) decorations.push(inlineMarks[name].range(inner.from, inner.to));
        } else if (inlineMarks[name] && node.to > node.from) {
          decorations.push(inlineMarks[name].range(node.from, node.to));
        }
      },
    });
  }
  return Decoration.set(decorations, true);
}

/** The span between a node's opening and closing marks (the whole node when it lacks them). */
function innerRange(marks: readonly { from: number; to: number }[], from: number, to: number): { from: number; to: number } {
  if (marks.length < 2) return { from, to };
  return { from: marks[0].to, to: marks[marks.length - 1].from };
}

export const livePreview: Extension = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = buildLivePreview(view.state, view.visibleRanges);
    }
    update(update: ViewUpdate) {
      if (update.docChanged || update.viewportChanged || update.selectionSet || syntaxTree(update.startState) !== syntaxTree(update.state)) {
        this.decorations = buildLivePreview(update.state, update.view.visibleRanges);
      }
    }
  },
  { decorations: (plugin) => plugin.decorations },
);
