/**
 * The document list and the open document, as the sidebar and the header see them. Every change goes through the
 * API and the list is re-read afterwards (and on 'documents-changed'), so what is shown is what the core holds.
 * What must stay true: an answer to an older listing never overwrites a newer one; a failed action leaves a
 * sentence a person can read in `notice` and changes nothing else.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { ChopinApi, DocumentDetail, DocumentId, DocumentSummary } from "../../../shared/api.js";
import { MAX_SEARCH_QUERY_CHARS } from "../../../shared/limits.js";
import { describeError } from "./describe-error.js";

export interface DocumentsState {
  documents: DocumentSummary[];
  query: string;
  showArchived: boolean;
  loading: boolean;
  /** The open document, as the core describes it; null when none is open. */
  selected: DocumentDetail | null;
  /** The last failure, in words; cleared by dismissNotice or the next success of the same action. */
  notice: string | null;
  refresh(): Promise<void>;
  setQuery(query: string): void;
  setShowArchived(show: boolean): void;
  open(id: DocumentId | null): Promise<void>;
  /** Re-reads the open document (after 'documents-changed' names it). */
  reloadSelected(): Promise<void>;
  create(): Promise<DocumentDetail | null>;
  rename(id: DocumentId, title: string): Promise<boolean>;
  archive(id: DocumentId): Promise<void>;
  restore(id: DocumentId): Promise<void>;
  remove(id: DocumentId): Promise<void>;
  share(id: DocumentId): Promise<void>;
  dismissNotice(): void;
}

export type DocumentsStore = StoreApi<DocumentsState>;

export function createDocumentsStore(api: ChopinApi): DocumentsStore {
  let listRequest = 0;
  let openRequest = 0;
  return createStore<DocumentsState>((set, get) => {
    const attempt = async <T>(action: () => Promise<T>): Promise<T | undefined> => {
      try {
        const result = await action();
        return result;
      } catch (error) {
        set({ notice: describeError(error) });
        return undefined;
      }
    };
    const afterChange = async () => {
      await Promise.all([get().refresh(), get().reloadSelected()]);
    };

    return {
      documents: [],
      query: "",
      showArchived: false,
      loading: false,
      selected: null,
      notice: null,

      async refresh() {
        const request = ++listRequest;
        set({ loading: true });
        const { query, showArchived } = get();
        const trimmed = query.trim();
        const documents = await attempt(() =>
          api.listDocuments({ ...(trimmed ? { query: trimmed } : {}), archived: showArchived }),
        );
        if (request !== listRequest) return;
        set({ loading: false, ...(documents ? { documents } : {}) });
      },
      setQuery(query) {
        set({ query: query.slice(0, MAX_SEARCH_QUERY_CHARS) });
        void get().refresh();
      },
      setShowArchived(showArchived) {
        set({ showArchived });
        void get().refresh();
      },
      async open(id) {
        const request = ++openRequest;
        if (id === null) {
          set({ selected: null });
          return;
        }
        const detail = await attempt(() => api.getDocument(id));
        if (request !== openRequest || !detail) return;
        set({ selected: detail });
      },
      async reloadSelected() {
        const current = get().selected;
        if (!current) return;
        const request = openRequest;
        try {
          const detail = await api.getDocument(current.id);
          if (request === openRequest && get().selected?.id === current.id) set({ selected: detail });
        } catch (error) {
          // The open document was deleted elsewhere: close it.
          if (request === openRequest && (error as { code?: string }).code === "not-found") set({ selected: null });
        }
      },
      async create() {
        const detail = await attempt(() => api.createDocument({}));
        if (!detail) return null;
        openRequest++;
        set({ selected: detail, showArchived: false, query: "" });
        await get().refresh();
        return detail;
      },
      async rename(id, title) {
        const renamed = await attempt(() => api.renameDocument(id, title));
        if (renamed) await afterChange();
        return renamed !== undefined;
      },
      async archive(id) {
        if (await attempt(() => api.archiveDocument(id))) await afterChange();
      },
      async restore(id) {
        if (await attempt(() => api.restoreDocument(id))) await afterChange();
      },
      async remove(id) {
        const done = await attempt(async () => {
          await api.deleteDocument(id);
          return true;
        });
        if (!done) return;
        if (get().selected?.id === id) {
          openRequest++;
          set({ selected: null });
        }
        await get().refresh();
      },
      async share(id) {
        if (await attempt(() => api.shareDocument(id))) await afterChange();
      },
      dismissNotice() {
        set({ notice: null });
      },
    };
  });
}
