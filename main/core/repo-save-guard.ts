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
 *
 * What must stay true: a background save never rejects; a flush rejects whenever one of its writes failed; a flush
 * that resolves wrote everything it covers. repo.flush calls saveDoc inside its own call, so the flag below (an
 * AsyncLocalStorage, which follows awaits) is set whenever saveDoc runs on a flush's behalf.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { DocumentId, Repo } from "@automerge/automerge-repo";
import type { ChopinError } from "../../shared/errors.js";
import { saveFailure } from "./save-failure.js";

export interface RepoSaveGuard {
  /** The last write failure, until a document write succeeds again; null while writes work. */
  readonly failing: ChopinError | null;
}

/** `onFault` hears the first failure of each run of failures (the sentence says what a person can do). */
export function guardRepoSaves(repo: Repo, onFault: (failure: ChopinError) => void = () => {}): RepoSaveGuard {
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

  const saveDoc = storage.saveDoc.bind(storage);
  storage.saveDoc = async (documentId, doc) => {
    try {
      await saveDoc(documentId, doc);
      failing = null;
    } catch (error) {
      const failure = fail(error);
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
