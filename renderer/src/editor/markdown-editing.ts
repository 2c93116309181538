/**
 * The CodeMirror configuration shared by the live editor and the read-only version viewer: Markdown (GitHub
 * flavour, for task lists and strikethrough), soft wrapping, live-preview styling and task checkboxes. Nothing here
 * talks to Automerge; plan-editor.ts adds the binding.
 */
import { markdown, markdownLanguage } from "@codemirror/lang-markdown";
import type { Extension } from "@codemirror/state";
import { EditorView, drawSelection } from "@codemirror/view";
import { livePreview } from "./live-preview.js";
import { taskCheckboxes } from "./task-checkboxes.js";

export function markdownPresentation(label: string): Extension {
  return [
    markdown({ base: markdownLanguage }),
    EditorView.lineWrapping,
    drawSelection(),
    livePreview,
    taskCheckboxes,
    EditorView.contentAttributes.of({ "aria-label": label, "aria-multiline": "true", spellcheck: "true" }),
  ];
}
