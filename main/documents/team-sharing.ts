/**
 * The share policy's document side: which relay shares go to, the default for new documents, the team's document list
 * (team index), and sharing one document. What must stay true: a person never un-shares (private -> shared only; a
 * teammate's removal from the team's list is what makes a shared plan private again); a share recorded before the
 * team index is known is entered when it arrives (Indexes.reconcile); only the newest setTeamIndex call takes effect,
 * so a slow lookup cannot attach a team index that was replaced since.
 */
import type { DocumentSummary } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import type { WorkspaceIndex } from "../../shared/schema/workspace-index.js";
import type { PlanAccess } from "./plan-access.js";
import { readPlan, toSummary, type PlanHandle } from "./plan-reader.js";
import { removeFromDevice } from "./plan-writes.js";
import { keepTeamRemoved } from "./team-removed.js";
import { entryOf, type IndexHandle } from "./workspace-index.js";

export class TeamSharing {
  readonly #access: PlanAccess;
  #teamRequest = 0;

  constructor(access: PlanAccess) {
    this.#access = access;
  }

  /** Whether a new document with no explicit choice is shared (true when a relay is configured). */
  get defaultShared(): boolean {
    return this.#access.indexes.relayUrl !== null;
  }

  /** The relay shares go to (null: none). Its team index comes with setTeamIndex. */
  setRelay(url: string | null): void {
    const { indexes, changed } = this.#access;
    if (indexes.relayUrl === url) return;
    const before = [...indexes.list().keys(), ...indexes.documentIds()];
    indexes.setRelay(url);
    // Whatever was listed as shared may be private now: every window must read its list again.
    changed.add(before);
  }

  /**
   * Attaches (or detaches, with null) the team index of the configured relay and reconciles this device's shares with
   * it (Indexes.reconcile). `confirmed`: the relay itself just named this id (not a cached one).
   */
  async setTeamIndex(documentId: string | null, confirmed = false): Promise<void> {
    const { repo, indexes, changed } = this.#access;
    const request = ++this.#teamRequest;
    if (documentId === null) {
      const previous = indexes.team;
      indexes.setTeamHandle(null);
      if (previous) changed.add([previous.documentId]);
      return;
    }
    const id = this.#access.parseId(documentId);
    indexes.expectTeam(id, confirmed);
    let handle: IndexHandle;
    try {
      handle = await repo.find<WorkspaceIndex>(id);
    } catch {
      throw new ChopinError("relay-unavailable", "The team's document list is not available yet; it will be retried.");
    }
    if (request !== this.#teamRequest) return;
    this.#access.track(handle);
    indexes.setTeamHandle(handle);
    const { removed } = await indexes.reconcile(async (docId) => {
      try {
        return entryOf(readPlan(await repo.find<PlanDocument>(docId)));
      } catch {
        return null;
      }
    });
    if (removed.length > 0) keepTeamRemoved(this.#access, removed);
    changed.add([id, ...indexes.list().keys()]);
  }

  /**
   * Private -> shared, never the reverse. A plan a teammate deleted from the team's list is shared as a copy under a
   * new id: the relay refuses the deleted id to every member for good (sync-relay/deleted-documents.ts), so the same id
   * would never reach anyone. The copy keeps the whole history; the private copy under the old id leaves this device.
   */
  async shareDocument(id: string): Promise<DocumentSummary> {
    const { handle, plan } = await this.#access.load(id);
    if (this.#access.isShared(handle.documentId)) {
      throw new ChopinError("already-shared", "This document is already shared with the team.");
    }
    if (this.#access.indexes.leftTeamAt(handle.documentId) !== null) return this.#shareCopy(handle, plan);
    this.#access.indexes.share(handle.documentId, entryOf(plan), this.#access.now());
    this.#access.changed.add([handle.documentId]);
    return toSummary(handle.documentId, plan, true);
  }

  async #shareCopy(handle: PlanHandle, plan: PlanDocument): Promise<DocumentSummary> {
    const access = this.#access;
    await access.repo.flush([handle.documentId]);
    const copy = access.repo.clone<PlanDocument>(handle);
    access.track(copy);
    // Listed and shared first: refused ('storage-failure'), the copy is let go and the plan stays as it was.
    access.enterNew(copy, plan, true);
    await access.repo.flush([copy.documentId]);
    await removeFromDevice(access, handle);
    access.changed.add([copy.documentId, handle.documentId]);
    return toSummary(copy.documentId, readPlan(copy), true);
  }
}
