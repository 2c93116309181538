/**
 * The sync indicator's state, published to windows as "sync-status": the relay link's state and error, plus how many
 * changes of shared documents the relay has not acknowledged yet (pending-changes.ts).
 *
 * What must stay true: recomputed at most every SYNC_STATUS_DEBOUNCE_MS while changes stream in, published only when
 * it differs; while changes wait or the link is down it is looked at again every SYNC_STATUS_RECHECK_MS, because the
 * relay's acknowledgements raise no event the core can hear (automerge-repo 2.5.6 emits no "document" event to hook).
 */
import type { Repo } from "@automerge/automerge-repo";
import type { ChopinEvents, SyncStatus } from "../../shared/api.js";
import { toHexHeads } from "../documents/heads.js";
import type { TypedEmitter } from "../util/typed-emitter.js";
import { countPendingChanges } from "./pending-changes.js";
import type { RelayLink } from "./relay-link.js";

/** Sync status is recomputed at most this often while changes stream in. */
export const SYNC_STATUS_DEBOUNCE_MS = 150;
/** While changes wait for the relay, the count is recomputed this often. */
export const SYNC_STATUS_RECHECK_MS = 1000;

export class SyncStatusPublisher {
  #last = "";
  #timer: NodeJS.Timeout | null = null;
  #recheck: NodeJS.Timeout | null = null;

  constructor(
    private readonly repo: Repo,
    private readonly relay: () => RelayLink,
    private readonly isShared: (documentId: string) => boolean,
    private readonly events: TypedEmitter<ChopinEvents>,
  ) {}

  status(): SyncStatus {
    const relay = this.relay();
    const link = relay.status();
    const pendingChanges =
      link.state === "local-only" ? 0 : countPendingChanges(this.repo, this.isShared, relay.relayStorageId(), toHexHeads, (id) => relay.receivedHeads(id));
    return { ...link, pendingChanges };
  }

  /** Something changed: the status is recomputed (debounced) and published if it differs. */
  publish(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      const status = this.status();
      const key = JSON.stringify(status);
      if (key !== this.#last) {
        this.#last = key;
        this.events.emit("sync-status", status);
      }
      if (status.pendingChanges > 0 || (status.state !== "connected" && status.state !== "local-only")) {
        this.#recheck ??= setTimeout(() => {
          this.#recheck = null;
          this.publish();
        }, SYNC_STATUS_RECHECK_MS);
      }
    }, SYNC_STATUS_DEBOUNCE_MS);
  }

  close(): void {
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#recheck) clearTimeout(this.#recheck);
    this.#timer = null;
    this.#recheck = null;
  }
}
