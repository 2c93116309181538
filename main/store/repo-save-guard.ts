/**
 * Keeps a failing disk from ending the app core, without letting it lie about what is saved.
 *
 * automerge-repo saves each changed document (and each peer's sync state) on a throttled timer and drops the
 * promise (`void fn(...)`): one write that throws (disk full, a read-only or locked database) was an unhandled
 * rejection, which ends a Node process, and with it every open window's link and every unsaved edit in the core
 * (storage audit: a full disk under a running core killed it on the next keystroke). The Repo's own repo.flush(),
 * which everything that reports "saved" awaits (docs/architecture.md, "Durability"), reaches the same saveDoc.
 *
 * So saveDoc and saveSyncState are wrapped: inside repo.flush() a failure is thrown on, as a 'storage-failure' with a
 * sentence (save-failure.ts), so waitSaved and MCP writes refuse and the window shows "Not saved yet"; in the Repo's
 * background saves it is reported once per run of failures and swallowed. Nothing is lost by swallowing: the
 * Repo records a document's heads as saved only after its write succeeded, so the next flush writes them again.
 * That next flush is not left to chance: a document whose save failed is flushed again every STORAGE_RETRY_MS until
 * its save works. A rename or archive the window was told is "not on disk yet" otherwise waited for the document's
 * next edit, or for the app to quit, after the disk had room again.
 *
 * What must stay true: a background save never rejects; a flush rejects whenever one of its writes failed; a flush
 * that resolves wrote everything it covers; a document whose save failed is retried while it stays loaded. repo.flush
 * calls saveDoc inside its own call, so the flag below (an AsyncLocalStorage, which follows awaits) is set whenever
 * saveDoc runs on a flush's behalf.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { DocumentId, Repo } from "@automerge/automerge-repo";
import type { ChopinError } from "../../shared/errors.js";
import { STORAGE_RETRY_MS } from "../util/limits.js";
import { saveFailure } from "../util/save-failure.js";

export interface RepoSaveGuard {
  /** The last write failure, until a document write succeeds again; null while writes work. */
  readonly failing: ChopinError | null;
}

/** `onFault` hears the first failure of each run of failures (the sentence says what a person can do). */
export function guardRepoSaves(
  repo: Repo,
  onFault: (failure: ChopinError) => void = () => {},
  retryMs: number = STORAGE_RETRY_MS,
): RepoSaveGuard {
  const storage = repo.storageSubsystem;
  let failing: ChopinError | null = null;
  const guard: RepoSaveGuard = {
    get failing() {
      return failing;
    },
  };
  if (!storage) return guard;
  const inFlush = new AsyncLocalStorage<true>();
  const fail = (error: unknown): ChopinError => {
    const failure = saveFailure(error);
    if (failing === null) onFault(failure);
    failing = failure;
    return failure;
  };

  /** Documents whose last save failed: flushed again until it works. */
  const unsaved = new Set<DocumentId>();
  let retry: ReturnType<typeof setTimeout> | null = null;
  const retryLater = () => {
    retry ??= setTimeout(() => {
      retry = null;
      // One deleted or let go meanwhile has nothing waiting in memory (a handle is let go only once saved).
      for (const id of unsaved) if (!repo.handles[id]?.isReady()) unsaved.delete(id);
      // A failure here is counted by saveDoc below, which sets the next retry.
      if (unsaved.size > 0) void repo.flush([...unsaved]).catch(() => undefined);
    }, retryMs);
    retry.unref?.();
  };

  const saveDoc = storage.saveDoc.bind(storage);
  storage.saveDoc = async (documentId, doc) => {
    try {
      await saveDoc(documentId, doc);
      failing = null;
      unsaved.delete(documentId);
    } catch (error) {
      const failure = fail(error);
      unsaved.add(documentId);
      retryLater();
      if (inFlush.getStore()) throw failure;
    }
  };
  const saveSyncState = storage.saveSyncState.bind(storage);
  storage.saveSyncState = async (documentId, storageId, syncState) => {
    try {
      await saveSyncState(documentId, storageId, syncState);
    } catch (error) {
      // A sync state is a cache the next sync rebuilds: the failure is said, never thrown.
      fail(error);
    }
  };
  const flush = repo.flush.bind(repo);
  repo.flush = (documents?: DocumentId[]) => inFlush.run(true, () => flush(documents));
  return guard;
}
