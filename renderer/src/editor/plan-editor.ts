/**
 * Creates the editor for one plan document: CodeMirror mirroring the document's body, which the window's replica
 * host owns (mirror/editor-mirror.ts). It is editable from its first frame, on the text it starts with (the core's
 * snapshot, or the document's own when there was none): what is typed before the replica has the document waits
 * and is rebased over whatever the document brings.
 * What must stay true: the editor starts from the text of the session's version 0, and remote edits never enter this
 * window's undo history (the mirror marks them so).
 */
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { highlightSelectionMatches, search, searchKeymap } from "@codemirror/search";
import { EditorState, Prec, type Extension } from "@codemirror/state";
import { EditorView, keymap, placeholder } from "@codemirror/view";
import { matchShortcut } from "../components/shortcuts.js";
import { bodySizeLimit } from "./body-size-limit.js";
import { createFindPanel } from "./find-panel.js";
import { READ_ONLY } from "./edit-lock.js";
import { keyboardFocusRing } from "./keyboard-focus-ring.js";
import { keydownTyping } from "./keydown-typing.js";
import { openLinkAtCaret, openLinksOnModClick } from "./link-open.js";
import { plannerChangeMarks } from "./planner-change-marks.js";
import { markdownPresentation } from "./markdown-editing.js";
import { richPaste } from "./rich-paste.js";
import { tabIndentKeys } from "./tab-indent.js";
import { toggleTasksInSelection } from "./task-checkboxes.js";
import { editorMirror, type EditorMirrorOptions, type MirrorEnd } from "../mirror/editor-mirror.js";

export const DOCUMENT_BODY_LABEL = "Document body";

export function createPlanEditor(options: {
  parent: HTMLElement;
  /** The session's version 0: the text the mirror's updates start from. */
  text: string;
  mirror: MirrorEnd;
  extensions?: Extension[];
  mirrorOptions?: EditorMirrorOptions;
}): EditorView {
  return new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: options.text,
      extensions: [...planPresentation(), planBinding(options.mirror, options.extensions, options.mirrorOptions)],
    }),
  });
}

/** How the editor presents Markdown (the version viewer shares it). */
export function planPresentation(): Extension[] {
  return [markdownPresentation(DOCUMENT_BODY_LABEL), placeholder("Start writing your plan…"), keyboardFocusRing()];
}

/**
 * Editing: history, keys (find and replace on Mod+F; Mod+Enter opens the link at the caret, else toggles the tasks of the selected lines), printable keys typed at keydown, Tab indenting lists and code only (tab-indent.ts), the body's size limit, Mod+click on a
 * link, rich paste as Markdown, the mirror of the document's body and the marks of what the Planner changed in it.
 */
export function planBinding(mirror: MirrorEnd, extensions: Extension[] = [], mirrorOptions: EditorMirrorOptions = {}): Extension[] {
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
    editorMirror(mirror, mirrorOptions),
    plannerChangeMarks(),
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
