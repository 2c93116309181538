/**
 * Creates the editor for one plan document: CodeMirror bound to the Automerge text at ["text"] of a ready DocHandle.
 * What must stay true: the editor starts from the handle's current text (the binding does not fill it), the handle
 * is ready before the binding is created, and remote edits never enter this window's undo history.
 */
import type { DocHandle } from "@automerge/automerge-repo";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { highlightSelectionMatches, search, searchKeymap } from "@codemirror/search";
import { EditorState, Prec, type Extension } from "@codemirror/state";
import { EditorView, keymap, placeholder } from "@codemirror/view";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import { matchShortcut } from "../components/shortcuts.js";
import { bodySizeLimit } from "./body-size-limit.js";
import { createFindPanel } from "./find-panel.js";
import { READ_ONLY } from "./edit-lock.js";
import { keyboardFocusRing } from "./keyboard-focus-ring.js";
import { keydownTyping } from "./keydown-typing.js";
import { openLinkAtCaret, openLinksOnModClick } from "./link-open.js";
import { markdownPresentation } from "./markdown-editing.js";
import { remoteEditsOutsideHistory } from "./remote-edits-outside-history.js";
import { richPaste } from "./rich-paste.js";
import { tabIndentKeys } from "./tab-indent.js";
import { toggleTasksInSelection } from "./task-checkboxes.js";
import { textSync } from "./text-sync.js";

export const DOCUMENT_BODY_LABEL = "Document body";

export function createPlanEditor(options: {
  parent: HTMLElement;
  handle: DocHandle<PlanDocument>;
  extensions?: Extension[];
}): EditorView {
  const { handle } = options;
  if (!handle.isReady()) throw new Error("The document must be ready before the editor binds to it.");
  const text = handle.doc().text;
  return new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: typeof text === "string" ? text : "",
      extensions: [...planPresentation(), planBinding(handle, options.extensions)],
    }),
  });
}

/** What the editor shows whether or not it is bound yet (an opening editor keeps it, so binding does not flash). */
export function planPresentation(): Extension[] {
  return [markdownPresentation(DOCUMENT_BODY_LABEL), placeholder("Start writing your plan…"), keyboardFocusRing()];
}

/**
 * Editing: history, keys (find and replace on Mod+F; Mod+Enter opens the link at the caret, else toggles the tasks of the selected lines), printable keys typed at keydown, Tab indenting lists and code only (tab-indent.ts), the body's size limit, Mod+click on a
 * link, rich paste as Markdown and the Automerge binding. The handle must be ready and the editor hold its text.
 */
export function planBinding(handle: DocHandle<PlanDocument>, extensions: Extension[] = []): Extension[] {
  return [
    history(),
    search({ top: true, createPanel: createFindPanel }),
    leaveAppShortcutsToTheApp,
    highlightSelectionMatches(),
    keymap.of([{ key: "Mod-Enter", run: (view) => openLinkAtCaret()(view) || toggleTasksInSelection(view) }, ...searchKeymap, ...defaultKeymap, ...historyKeymap, tabIndentKeys]),
    keydownTyping(),
    bodySizeLimit(),
    openLinksOnModClick(),
    richPaste(),
    textSync(handle as DocHandle<unknown>),
    remoteEditsOutsideHistory,
    ...extensions,
  ];
}

/**
 * The window's own shortcuts are not the editor's: with Caps Lock on, Mod+Shift+F arrives as a shifted "f", which
 * CodeMirror reads as its own Mod+F and opened find as well as the sidebar search. Claimed here, ahead of the keymap,
 * the key goes on to the window's handler (App) alone.
 */
const leaveAppShortcutsToTheApp = Prec.highest(
  EditorView.domEventHandlers({ keydown: (event) => matchShortcut(event) === "search" || matchShortcut(event) === "history" }),
);

/** A read-only view of Markdown (an older version), styled like the editor. */
export function createMarkdownViewer(parent: HTMLElement, markdown: string, label: string, extensions: Extension[] = []): EditorView {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: markdown,
      extensions: [markdownPresentation(label), READ_ONLY, ...extensions],
    }),
  });
}
