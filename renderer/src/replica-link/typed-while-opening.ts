/**
 * Text typed into a document the window's replica host has not loaded yet lives only in the editor (the host takes
 * it once the load ends). If the page goes away before that, it is kept here, in the window outbox, as the editor's
 * edits against the text it started from; the host that next starts in this origin replays it into the document
 * (outbox-replay.ts). A page shown again from the back-forward cache takes its entry back: its own editor goes on.
 * What must stay true: nothing is written once the host has the document (its own outbox keeper covers that), and
 * a refusal to store (too large, storage full) never throws out of the page's last moments.
 */
import type { EditorView } from "@codemirror/view";
import { getSyncedVersion } from "@codemirror/collab";
import { unconfirmedChanges } from "../mirror/editor-mirror.js";
import type { OutboxStore } from "../replica/outbox-store.js";

/** The outbox window id of typed-while-opening entries: never the same entry as the keeper's for the document. */
export const typedWindowId = (windowId: string) => `${windowId}:opening`;

export function keepTypedWhileOpening(options: {
  store: OutboxStore | null;
  windowId: string;
  documentId: string;
  title: () => string;
  baseText: string;
  view: () => EditorView | null;
  /** Whether the host has the document (then nothing is kept here). */
  loaded: () => boolean;
  page?: Pick<Window, "addEventListener" | "removeEventListener"> | null;
  now?: () => number;
}): () => void {
  const { store } = options;
  const page = options.page === undefined ? (typeof window === "undefined" ? null : window) : options.page;
  if (!store || !page) return () => undefined;
  const windowId = typedWindowId(options.windowId);
  const onHide = () => {
    const view = options.view();
    if (!view || options.loaded() || getSyncedVersion(view.state) !== 0) return;
    const changes = unconfirmedChanges(view.state);
    if (!changes) return;
    try {
      store.put({
        documentId: options.documentId,
        windowId,
        title: options.title() || "Untitled",
        heads: [],
        typed: { baseText: options.baseText, changes: changes.toJSON() },
        writtenAt: (options.now ?? Date.now)(),
      });
    } catch {
      // Too large, or the browser refused: the page is going; there is no one left to tell.
    }
  };
  const onShow = (event: Event) => {
    if ((event as PageTransitionEvent).persisted) store.remove(options.documentId, windowId);
  };
  page.addEventListener("pagehide", onHide);
  page.addEventListener("pageshow", onShow);
  return () => {
    page.removeEventListener("pagehide", onHide);
    page.removeEventListener("pageshow", onShow);
  };
}
