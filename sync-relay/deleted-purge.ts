/**
 * Removes the stored data of plans deleted from the team's list once their grace has passed (deleted-documents.ts):
 * run at start and every RELAY_DELETED_SWEEP_MS. A loaded copy is let go first (its listeners detached, so nothing
 * saves it again), then every chunk of the document (snapshots, incrementals, sync states) is removed.
 *
 * What must stay true: only documents whose grace passed are touched; a purge that fails is logged and tried at the
 * next sweep, never thrown into a timer.
 */
import type { DocHandle, DocumentId, Repo, StorageAdapterInterface } from "@automerge/automerge-repo";
import { unloadDocument } from "../shared/unload-document.js";
import type { DeletedDocuments } from "./deleted-documents.js";

export interface PurgeOptions {
  repo: Repo;
  storage: StorageAdapterInterface;
  deleted: DeletedDocuments;
  graceMs: number;
  now?: () => number;
  log?: (line: string) => void;
}

/** Purges what is due; resolves with the ids purged. */
export async function purgeDeleted(options: PurgeOptions): Promise<string[]> {
  const now = options.now ?? Date.now;
  const purged: string[] = [];
  for (const id of options.deleted.duePurge(now(), options.graceMs)) {
    try {
      const handle = options.repo.handles[id as DocumentId] as DocHandle<unknown> | undefined;
      if (handle?.isReady()) await unloadDocument(options.repo, handle);
      else if (handle) options.repo.delete(id as DocumentId);
      await options.storage.removeRange([id]);
      options.deleted.markPurged(id, now());
      purged.push(id);
    } catch (error) {
      options.log?.(`could not remove the data of deleted plan ${id}: ${String(error)}`);
    }
  }
  if (purged.length > 0) options.log?.(`removed the stored data of ${purged.length} plan(s) deleted from the team's list`);
  return purged;
}
