/**
 * Writes down that a teammate removed a shared plan this device keeps (team-removed.ts): its sharing record goes and
 * its removal is recorded, in one transaction. This runs inside a change listener of the team index, on a change that
 * came from the relay, so a database that refuses the write (a full disk) must not throw: the throw went up through
 * automerge-repo's sync into the socket's message handler, an uncaught exception that ended the core. Half of the
 * write must not land either: with the removal unrecorded and the sharing record kept, the next team reconcile put
 * the plan back on the team's list, undoing the teammate's delete.
 * So a refused write is kept here, in memory, and tried again every STORAGE_RETRY_MS until it lands; meanwhile the
 * plan counts as removed (Indexes asks `unwritten`). What must stay true: a record is written whole or not at all;
 * one that waits is forgotten when the plan is shared again or deleted (its retry would undo that).
 */
import type { Database } from "better-sqlite3";
import type { ChopinError } from "../../shared/errors.js";
import { STORAGE_RETRY_MS } from "../util/limits.js";
import { FaultRun } from "../util/fault-run.js";
import { forgetShare } from "../store/relay-shares.js";
import { recordTeamRemoval } from "../store/team-removals.js";

export class TeamRemovalRecords {
  /** Removals the database refused, by document id: when the teammate removed the plan, and from which relay's list. */
  readonly #unwritten = new Map<string, { removedAt: number; relayUrl: string }>();
  #retry: ReturnType<typeof setTimeout> | null = null;
  /** A refused write is said once per run of them. */
  readonly #faults: FaultRun;

  constructor(
    private readonly db: Database,
    onFault: (failure: ChopinError) => void = () => {},
    private readonly retryMs: number = STORAGE_RETRY_MS,
  ) {
    this.#faults = new FaultRun(onFault);
  }

  /** Records the removal from the list of the relay at `relayUrl` now, or keeps it to record later; never throws. */
  record(documentId: string, removedAt: number, relayUrl: string): void {
    this.#unwritten.set(documentId, { removedAt, relayUrl });
    this.#writeUnwritten();
  }

  /** When the teammate removed the plan, while that is not on disk yet; else undefined. */
  unwritten(documentId: string): number | undefined {
    return this.#unwritten.get(documentId)?.removedAt;
  }

  /** The plan was shared again or deleted: a removal still waiting must not be written over that. */
  forget(documentId: string): void {
    this.#unwritten.delete(documentId);
  }

  close(): void {
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = null;
  }

  #writeUnwritten(): void {
    for (const [documentId, { removedAt, relayUrl }] of this.#unwritten) {
      try {
        this.db.transaction(() => {
          forgetShare(this.db, documentId, relayUrl);
          recordTeamRemoval(this.db, documentId, removedAt);
        })();
      } catch (error) {
        this.#faults.refused(error);
        this.#retryLater();
        return;
      }
      this.#unwritten.delete(documentId);
      this.#faults.worked();
    }
  }

  #retryLater(): void {
    this.#retry ??= setTimeout(() => {
      this.#retry = null;
      this.#writeUnwritten();
    }, this.retryMs);
    this.#retry.unref?.();
  }
}
