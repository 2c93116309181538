/**
 * A reload (or the next launch) opens the document that was open, as a desktop app does: the id of the document a
 * person opened is kept in the page origin's storage, and once the first listing arrives it is opened again if it is
 * still listed. What must stay true: only a document the core lists is reopened (another installation on the same
 * origin, a deleted document: nothing happens), and a person who already opened something meanwhile keeps it.
 */
import type { DocumentId } from "../../../shared/api.js";
import type { DocumentsStore } from "./documents-store.js";

export const LAST_OPEN_KEY = "chopin.lastOpenDocument";

type KeyValueStorage = Pick<Storage, "getItem" | "setItem">;

/** The page's localStorage, or null where it cannot be used (a sandbox, disabled storage). */
export function pageStorage(): KeyValueStorage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

/** Keeps the id of each document opened (not a preview) in `storage`; returns the unsubscribe. */
export function rememberLastOpen(documents: DocumentsStore, storage: KeyValueStorage | null): () => void {
  if (!storage) return () => undefined;
  return documents.subscribe((state, previous) => {
    const id = state.selected?.id;
    // The moment a document is really open (a preview of the same id first counts as not yet).
    if (!id || state.selectedIsPreview || (id === previous.selected?.id && !previous.selectedIsPreview)) return;
    try {
      storage.setItem(LAST_OPEN_KEY, id);
    } catch {
      // Storage full or refused: reopening is a convenience, never worth an error.
    }
  });
}

/** Opens the remembered document if it is listed now and nothing is open yet. */
export async function reopenLast(documents: DocumentsStore, storage: KeyValueStorage | null): Promise<void> {
  const id = storage?.getItem(LAST_OPEN_KEY);
  const state = documents.getState();
  if (!id || state.selected || state.opening) return;
  if (!state.documents.some((doc) => doc.id === id)) return;
  await state.open(id as DocumentId);
}
