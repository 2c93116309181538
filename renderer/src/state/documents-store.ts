/**
 * The document list and the open document, as the sidebar and the header see them. Every change goes through the
 * API and the list is re-read afterwards (and on 'documents-changed'), so what is shown is what the core holds.
 * The two re-reads (list, open document) are each one in flight with at most one queued (latest-wins.ts), however
 * often they are asked for: a burst of 'documents-changed' events costs the core two reads, not one per event.
 * What must stay true: an answer to an older listing never overwrites a newer one, nor one for another query or view;
 * a failed action leaves a sentence a person can read in `notice` and changes nothing else.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { ChopinApi, DocumentDetail, DocumentId, DocumentSnapshot, DocumentSummary } from "../../../shared/api.js";
import { MAX_SEARCH_QUERY_CHARS } from "../../../shared/limits.js";
import { OPEN_PREVIEW_WAIT_MS } from "../limits.js";
import { describeError } from "./describe-error.js";
import { latestWins } from "./latest-wins.js";
import { markOpening } from "./opening-marks.js";
import { MAX_DOCUMENT_MARKDOWN_BYTES } from "../../../shared/limits.js";
import { bytesToBase64 } from "../replica/base64.js";
import { isMarkdownFileName } from "./markdown-file-names.js";

/** The fast answers asked for first when a document is opened (see use-open-document.ts); each settles, null on failure. */
export interface OpeningRequests {
  id: DocumentId;
  snapshot: Promise<DocumentSnapshot | null>;
  saved: Promise<string | null>;
  /** The snapshot's answer when it came before the document was shown, so the first render paints it at once. */
  snapshotAnswer?: DocumentSnapshot | null;
}


/** The promise's value if it settles within `ms`, else undefined (the promise itself carries on). */
function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export interface DocumentsState {
  documents: DocumentSummary[];
  query: string;
  showArchived: boolean;
  loading: boolean;
  /**
   * How many archived documents (matching the query, if any) the live list leaves out, known only when that list came
   * back empty (0 otherwise): an empty sidebar then says where they are instead of "No documents yet" or "No match".
   */
  archivedOutOfSight: number;
  /** The open document, as the core describes it; null when none is open. */
  selected: DocumentDetail | null;
  /**
   * True while `selected` is only the list's summary of a document being opened (repository, provenance, brief
   * and revision not known yet): the document shows at once, even while the core is still loading a large one.
   */
  selectedIsPreview: boolean;
  /** Snapshot and stored-bytes requests of the document being opened, sent before anything makes the core load it. */
  opening: OpeningRequests | null;
  /**
   * The last failure, in words; cleared by dismissNotice, or, when it is about one document (`noticeAbout`), once an
   * action on that document succeeds or the document is deleted: a notice never outlives what it was about.
   */
  notice: string | null;
  /** The document the notice is about, when a document action failed; null for any other notice. */
  noticeAbout: DocumentId | null;
  /**
   * True when the notice is the core's 'storage-failure' with details.damaged for `noticeAbout`: that plan's stored
   * copy cannot be read, so the banner offers to remove it (its bytes are kept aside by the core). Not for a write the
   * disk refused (the same code, no such detail): that plan is fine. Reset with every notice.
   */
  noticeDamaged: boolean;
  /** The document create() just made, until its title field has taken the focus (then null). */
  justCreated: DocumentId | null;
  /** The title field calls this once it has taken the focus for `justCreated`. */
  focusedCreated(): void;
  refresh(): Promise<void>;
  setQuery(query: string): void;
  setShowArchived(show: boolean): void;
  open(id: DocumentId | null): Promise<void>;
  /** Re-reads the open document (after 'documents-changed' names it). */
  reloadSelected(): Promise<void>;
  /** A new document, shared by the core's default (with a relay) unless `shared: false` keeps it on this device. */
  create(options?: { shared?: boolean }): Promise<DocumentDetail | null>;
  rename(id: DocumentId, title: string): Promise<boolean>;
  archive(id: DocumentId): Promise<void>;
  restore(id: DocumentId): Promise<void>;
  remove(id: DocumentId): Promise<void>;
  /** A damaged shared plan: the core sets its bytes aside and fetches the team's copy, then it opens. */
  restoreFromTeam(id: DocumentId): Promise<void>;
  share(id: DocumentId): Promise<void>;
  /** Saves the plan as a Markdown file (the core makes it; `save` hands it to the person's disk). */
  exportMarkdown(id: DocumentId, save: (fileName: string, markdown: string) => void): Promise<void>;
  /**
   * Imports Markdown files as private plans, one by one, and opens the last one imported; each file refused (not
   * Markdown, not UTF-8, too large) is said by name in the notice, and nothing of it is kept.
   */
  importFiles(files: readonly File[]): Promise<void>;
  /** Shows a notice; `about` names the document it concerns (see `notice`). */
  showNotice(notice: string, about?: DocumentId | null): void;
  dismissNotice(): void;
}

export type DocumentsStore = StoreApi<DocumentsState>;

export function createDocumentsStore(api: ChopinApi, { previewWaitMs = OPEN_PREVIEW_WAIT_MS } = {}): DocumentsStore {
  let openRequest = 0;
  return createStore<DocumentsState>((set, get) => {
    /** `about`: the document the action is on, so its failure's notice goes once that document is done with. */
    const attempt = async <T>(action: () => Promise<T>, about: DocumentId | null = null): Promise<T | undefined> => {
      try {
        const result = await action();
        if (about !== null && get().noticeAbout === about) set({ notice: null, noticeAbout: null, noticeDamaged: false });
        return result;
      } catch (error) {
        // Only a plan whose stored copy cannot be read: a write a full disk refused is also a 'storage-failure'.
        const refusal = error as { code?: unknown; details?: { damaged?: unknown } } | null;
        const damaged = about !== null && refusal?.code === "storage-failure" && refusal.details?.damaged === true;
        set({ notice: describeError(error), noticeAbout: about, noticeDamaged: damaged });
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
      archivedOutOfSight: 0,
      selected: null,
      selectedIsPreview: false,
      opening: null,
      notice: null,
      noticeAbout: null,
      noticeDamaged: false,
      justCreated: null,

      refresh: latestWins(async () => {
        set({ loading: true });
        const { query, showArchived } = get();
        const trimmed = query.trim();
        let documents: DocumentSummary[] | undefined;
        try {
          documents = await api.listDocuments({ ...(trimmed ? { query: trimmed } : {}), archived: showArchived });
        } catch (error) {
          // A listing refused because the link is down is not news: the status bar says so, and it is re-read on reconnect.
          if ((error as { code?: unknown }).code !== "core-unavailable") set({ notice: describeError(error), noticeAbout: null, noticeDamaged: false });
        }
        // Asked only for an empty live list: the sidebar would otherwise say "none yet" or "no match" while archived
        // documents (matching the query, if any) exist.
        let archivedOutOfSight = 0;
        if (documents && documents.length === 0 && !showArchived) {
          archivedOutOfSight = (await api.listDocuments({ ...(trimmed ? { query: trimmed } : {}), archived: true }).catch(() => [])).length;
        }
        // Asked for another query or view than the one now wanted: the run queued by that change answers instead.
        if (get().query !== query || get().showArchived !== showArchived) return;
        set({ loading: false, ...(documents ? { documents, archivedOutOfSight } : {}) });
      }),
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
          set({ selected: null, selectedIsPreview: false });
          return;
        }
        const summary = get().documents.find((d) => d.id === id);
        const opening: OpeningRequests = {
          id,
          snapshot: api.openSnapshot(id).catch(() => null),
          saved: api.readSavedDocument(id).catch(() => null),
        };
        set({ opening });
        const recorded = opening.snapshot.then((snapshotAnswer) => {
          markOpening("snapshot-received");
          const current = get().opening;
          if (request === openRequest && current?.id === id) set({ opening: { ...current, snapshotAnswer } });
        });
        if (summary && get().selected?.id !== id) {
          await settledWithin(recorded, previewWaitMs);
          if (request !== openRequest) return;
          set({ selected: previewOf(summary), selectedIsPreview: true });
        }
        // getDocument makes the core load the document, which holds its event loop for as long as a large document
        // takes: the cheap reads above are answered first.
        await Promise.all([opening.snapshot, opening.saved]);
        if (request !== openRequest) return;
        const detail = await attempt(() => api.getDocument(id), id);
        if (request !== openRequest) return;
        if (detail) set({ selected: detail, selectedIsPreview: false });
        // A preview of a document the core cannot open is not left standing.
        else if (get().selectedIsPreview && get().selected?.id === id) set({ selected: null, selectedIsPreview: false });
      },
      reloadSelected: latestWins(async () => {
        const current = get().selected;
        if (!current) return;
        const request = openRequest;
        try {
          const detail = await api.getDocument(current.id);
          if (request === openRequest && get().selected?.id === current.id) set({ selected: detail, selectedIsPreview: false });
        } catch (error) {
          // The open document was deleted elsewhere: close it.
          if (request === openRequest && (error as { code?: string }).code === "not-found") {
            set({ selected: null, selectedIsPreview: false, ...(get().noticeAbout === current.id ? { notice: null, noticeAbout: null, noticeDamaged: false } : {}) });
          }
        }
      }),
      async create(options = {}) {
        const detail = await attempt(() => api.createDocument(options.shared === false ? { shared: false } : {}));
        if (!detail) return null;
        openRequest++;
        set({ selected: detail, selectedIsPreview: false, showArchived: false, query: "", justCreated: detail.id });
        await get().refresh();
        return detail;
      },
      async rename(id, title) {
        const renamed = await attempt(() => api.renameDocument(id, title), id);
        // Also after a refusal: a write the disk refused stays in the core's memory, so its title is the new one.
        await afterChange();
        return renamed !== undefined;
      },
      async archive(id) {
        if (await attempt(() => api.archiveDocument(id), id)) await afterChange();
      },
      async restore(id) {
        if (await attempt(() => api.restoreDocument(id), id)) await afterChange();
      },
      async remove(id) {
        const done = await attempt(async () => {
          await api.deleteDocument(id);
          return true;
        }, id);
        if (!done) return;
        if (get().selected?.id === id) {
          openRequest++;
          set({ selected: null, selectedIsPreview: false });
        }
        await get().refresh();
      },
      async share(id) {
        const shared = await attempt(() => api.shareDocument(id), id);
        if (!shared) return;
        // A plan a teammate deleted from the team's list is shared as a copy under a new id: show the copy.
        if (shared.id !== id && get().selected?.id === id) {
          await get().refresh();
          await get().open(shared.id);
          return;
        }
        await afterChange();
      },
      async restoreFromTeam(id) {
        const detail = await attempt(() => api.restoreDamagedFromTeam(id), id);
        await get().refresh();
        if (detail) await get().open(id);
      },
      async exportMarkdown(id, save) {
        const file = await attempt(() => api.exportMarkdown(id), id);
        if (file) save(file.fileName, file.markdown);
      },
      async importFiles(files) {
        const refused: string[] = [];
        let last: DocumentDetail | null = null;
        let imported = 0;
        for (const file of files) {
          const refusal = refusalBeforeReading(file);
          if (refusal) {
            refused.push(refusal);
            continue;
          }
          try {
            const contentBase64 = bytesToBase64(new Uint8Array(await file.arrayBuffer()));
            last = await api.importMarkdown({ name: file.name, contentBase64 });
            imported++;
          } catch (error) {
            refused.push(describeError(error));
          }
        }
        await get().refresh();
        if (last) await get().open(last.id);
        if (refused.length > 0) {
          const done = imported > 0 ? `${imported === 1 ? "One file was" : `${imported} files were`} imported as private plans. ` : "";
          set({ notice: `${done}${refused.join(" ")}`, noticeAbout: null, noticeDamaged: false });
        }
      },
      showNotice(notice, about = null) {
        set({ notice, noticeAbout: about, noticeDamaged: false });
      },
      dismissNotice() {
        set({ notice: null, noticeAbout: null, noticeDamaged: false });
      },
      focusedCreated() {
        set({ justCreated: null });
      },
    };
  });
}

/**
 * A file refused before its bytes are read: not a Markdown file by its name, or larger than a plan holds (a dropped
 * video is not read into memory to be refused by the core).
 */
function refusalBeforeReading(file: File): string | null {
  if (!isMarkdownFileName(file.name)) return `“${file.name}” is not a Markdown file (.md), so it was not imported.`;
  if (file.size > MAX_DOCUMENT_MARKDOWN_BYTES) {
    return `“${file.name}” is ${Math.ceil(file.size / 1024)} KB, more than the ${MAX_DOCUMENT_MARKDOWN_BYTES / 1024} KB a plan holds, so it was not imported.`;
  }
  return null;
}

/** What is known of a document from the list before the core has described it in full. */
function previewOf(summary: DocumentSummary): DocumentDetail {
  return { ...summary, url: `automerge:${summary.id}`, repository: null, provenance: null, brief: null, revision: "" };
}
