/**
 * What the open editor knows that other parts of the window show: the save state (status bar), who is here
 * (header), the outline (side panel) and the live EditorView (so the outline can scroll it). Reset when the
 * document changes. Also where the title field asks for the focus to move into the body (Enter in the title): at
 * once when the editor is editable, else as soon as it becomes so (EditorHost calls bodyBecameEditable).
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { EditorView } from "@codemirror/view";
import type { OutlineEntry } from "../editor/outline.js";
import type { Peer } from "../editor/presence-types.js";
import type { SaveState } from "./save-tracker.js";

export interface EditorState {
  documentId: string | null;
  view: EditorView | null;
  save: SaveState;
  peers: Peer[];
  outline: OutlineEntry[];
  /** Set while the body should take the focus once it is editable (asked for before the editor was bound). */
  bodyFocusPending: boolean;
  /** The document the pending focus is for: it survives the reset of opening that document, and no other. */
  bodyFocusFor: string | null;
  /**
   * Puts the caret at the end of the body (its start when empty) and focuses it, now or once it is editable; with a
   * document id, that document's body once it is open (the palette asks before opening it).
   */
  focusBody(documentId?: string): void;
  /** The editor calls this once the live, editable view of `documentId` is in `view` (and `documentId` set). */
  bodyBecameEditable(): void;
  reset(documentId: string | null): void;
}

/** The caret where writing goes on: the end of the body's text (which is its start when the body is empty). */
export function focusBodyEnd(view: EditorView): void {
  view.dispatch({ selection: { anchor: view.state.doc.length }, scrollIntoView: true });
  view.focus();
}

const editable = (view: EditorView | null): view is EditorView => view !== null && !view.state.readOnly;

export type EditorStore = StoreApi<EditorState>;

export function createEditorStore(): EditorStore {
  return createStore<EditorState>((set, get) => ({
    documentId: null,
    view: null,
    save: { kind: "unknown" },
    peers: [],
    outline: [],
    bodyFocusPending: false,
    bodyFocusFor: null,
    focusBody(documentId) {
      const { view, documentId: current } = get();
      if ((documentId === undefined || documentId === current) && editable(view)) {
        set({ bodyFocusPending: false, bodyFocusFor: null });
        focusBodyEnd(view);
      } else set({ bodyFocusPending: true, bodyFocusFor: documentId ?? current });
    },
    bodyBecameEditable() {
      const { view, bodyFocusPending, bodyFocusFor, documentId } = get();
      if (!bodyFocusPending || !editable(view) || (bodyFocusFor !== null && bodyFocusFor !== documentId)) return;
      set({ bodyFocusPending: false, bodyFocusFor: null });
      focusBodyEnd(view);
    },
    reset: (documentId) =>
      set((s) => {
        // A focus asked for another document outlives this editor: that document is still opening.
        const keep = s.bodyFocusPending && s.bodyFocusFor !== null && s.bodyFocusFor !== s.documentId;
        return { documentId, view: null, save: { kind: "unknown" }, peers: [], outline: [], bodyFocusPending: keep, bodyFocusFor: keep ? s.bodyFocusFor : null };
      }),
  }));
}
