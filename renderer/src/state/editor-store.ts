/**
 * What the open editor knows that other parts of the window show: the save state (status bar), who is here
 * (header), the outline (side panel) and the live EditorView (so the outline can scroll it). Reset when the
 * document changes.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { EditorView } from "@codemirror/view";
import type { OutlineEntry } from "../editor/outline.js";
import type { Peer } from "../editor/presence.js";
import type { SaveState } from "./save-tracker.js";

export interface EditorState {
  documentId: string | null;
  view: EditorView | null;
  save: SaveState;
  peers: Peer[];
  outline: OutlineEntry[];
  reset(documentId: string | null): void;
}

export type EditorStore = StoreApi<EditorState>;

export function createEditorStore(): EditorStore {
  return createStore<EditorState>((set) => ({
    documentId: null,
    view: null,
    save: { kind: "unknown" },
    peers: [],
    outline: [],
    reset: (documentId) => set({ documentId, view: null, save: { kind: "unknown" }, peers: [], outline: [] }),
  }));
}
