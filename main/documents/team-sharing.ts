/**
 * The share policy's document side: which documents may reach the relay, the default for new documents, the team's
 * document list (team index), and sharing one document. What must stay true: sharing never reverses (private ->
 * shared only); a share recorded before the team index is known is entered when it arrives (Indexes.reconcile); only
 * the newest setTeamIndex call takes effect, so a slow lookup cannot attach a team index that was replaced since.
 */
import type { DocumentSummary } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import type { WorkspaceIndex } from "../../shared/schema/workspace-index.js";
import type { PlanAccess } from "./plan-access.js";
import { readPlan, toSummary } from "./plan-reader.js";
import { entryOf, type IndexHandle } from "./workspace-index.js";

export class TeamSharing {
  readonly #access: PlanAccess;
  #defaultShared = false;
  #teamRequest = 0;

  constructor(access: PlanAccess) {
    this.#access = access;
  }

  /** Whether a new document with no explicit choice is shared (true when a relay is configured). */
  get defaultShared(): boolean {
    return this.#defaultShared;
  }

  setDefaultShared(shared: boolean): void {
    this.#defaultShared = shared;
  }

  /** Attaches (or detaches, with null) the team index and enters every recorded share into it. */
  async setTeamIndex(documentId: string | null): Promise<void> {
    const { repo, indexes, changed } = this.#access;
    const request = ++this.#teamRequest;
    if (documentId === null) {
      const previous = indexes.team;
      indexes.setTeamHandle(null);
      if (previous) changed.add([previous.documentId]);
      return;
    }
    const id = this.#access.parseId(documentId);
    indexes.expectTeam(id);
    let handle: IndexHandle;
    try {
      handle = await repo.find<WorkspaceIndex>(id);
    } catch {
      throw new ChopinError("relay-unavailable", "The team's document list is not available yet; it will be retried.");
    }
    if (request !== this.#teamRequest) return;
    this.#access.track(handle);
    indexes.setTeamHandle(handle);
    await indexes.reconcile(async (docId) => {
      try {
        return entryOf(readPlan(await repo.find<PlanDocument>(docId)));
      } catch {
        return null;
      }
    });
    changed.add([id, ...indexes.list().keys()]);
  }

  /** Private -> shared, never the reverse. */
  async shareDocument(id: string): Promise<DocumentSummary> {
    const { handle, plan } = await this.#access.load(id);
    if (this.#access.isShared(handle.documentId)) {
      throw new ChopinError("already-shared", "This document is already shared with the team.");
    }
    this.#access.indexes.share(handle.documentId, entryOf(plan), this.#access.now());
    this.#access.changed.add([handle.documentId]);
    return toSummary(handle.documentId, plan, true);
  }
}
