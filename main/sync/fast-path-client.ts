/**
 * The client half of the relay change fast path (see shared/sync-wire.ts): the shared ChangeFastPath
 * (shared/fast-link/change-fast-path.ts, which also serves the window <-> core links) with Node's change hash, as
 * main/sync/relay-client-adapter.ts runs it. It sends each fresh burst of a document that syncs with the relay in one
 * "changes" frame and applies the frames the relay forwards; a document rides it only after this Repo itself sent the
 * relay a sync/request message for it on the current connection (noteOutbound), so private documents never do.
 *
 * What must stay true: the hash is verifiedChangeHashes, so a relay frame holding bytes that are not changes is never
 * applied (left to the sync protocol).
 */
import type { Repo } from "@automerge/automerge-repo";
import { ChangeFastPath } from "../../shared/fast-link/change-fast-path.js";
import { verifiedChangeHashes } from "../../shared/node/change-hash.js";

export { fastPathBatch, type FastPathStats } from "../../shared/fast-link/change-fast-path.js";

export class ClientFastPath extends ChangeFastPath {
  /**
   * `send` delivers one "changes" frame to the relay and says whether it could; `sync` runs a sync-protocol round with
   * the relay for the document at once (syncNow) or records in the sync state that the relay has these changes
   * (notePeerHas, shared/sync-pacing.ts).
   */
  constructor(
    send: (documentId: string, changes: Uint8Array[]) => boolean,
    sync: {
      syncNow: (repo: Repo, documentId: string) => void;
      notePeerHas: (repo: Repo, documentId: string, hashes: readonly string[]) => void;
      /** Hashes of a batch the relay sent and this Repo applied: the relay holds those changes. */
      received?: (documentId: string, hashes: readonly string[]) => void;
      /** The share decision, asked for every batch both ways (ChangeFastPathOptions.mayCarry). */
      mayCarry?: (documentId: string) => boolean;
    },
  ) {
    super({ send, syncNow: sync.syncNow, notePeerHas: sync.notePeerHas, received: sync.received, mayCarry: sync.mayCarry, hashes: verifiedChangeHashes });
  }
}
