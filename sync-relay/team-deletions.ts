/**
 * Watches the team's list (the team index) in the relay's own replica and turns every entry that leaves it into a
 * recorded deletion (deleted-documents.ts): the plan is refused to every member from then on, and its data is purged
 * after the grace. Every change the relay's copy takes (sync, fast path, from any member) passes here, so no path
 * around it exists. An entry that names a deleted plan again (a concurrent edit, a member's retry, a hostile member)
 * is taken out of the list by the relay itself, so every member's list agrees with what the relay serves.
 *
 * What must stay true: the team index stays loaded while the relay runs (a listener on an evicted handle would hear
 * nothing); the set of listed ids is compared whole after each change, so a whole-list replacement is seen too; the
 * team index itself is never recorded as deleted.
 */
import { isValidDocumentId } from "@automerge/automerge-repo";
import { conversationIdOf } from "../shared/node/conversation-identity.js";
import type { DocHandle, DocumentId, Repo } from "@automerge/automerge-repo";
import type { WorkspaceIndex } from "../shared/schema/workspace-index.js";
import type { DeletedDocuments } from "./deleted-documents.js";

export interface TeamDeletionsOptions {
  repo: Repo;
  teamIndexDocumentId: DocumentId;
  deleted: DeletedDocuments;
  /** Told the ids just recorded as deleted (the relay stops syncing them at once). */
  onDeleted(ids: string[]): void;
  now?: () => number;
  log?: (line: string) => void;
}

export interface TeamDeletions {
  stop(): void;
}

function listedIds(doc: WorkspaceIndex | undefined): Set<string> {
  const documents = doc?.documents;
  return new Set(documents && typeof documents === "object" ? Object.keys(documents) : []);
}

export async function watchTeamDeletions(options: TeamDeletionsOptions): Promise<TeamDeletions> {
  const { repo, deleted, teamIndexDocumentId } = options;
  const now = options.now ?? Date.now;
  const handle = (await repo.find<WorkspaceIndex>(teamIndexDocumentId)) as DocHandle<WorkspaceIndex>;
  let listed = listedIds(handle.doc());
  let stopped = false;

  const sweepRelisted = (ids: Set<string>) => {
    const relisted = [...ids].filter((id) => deleted.has(id));
    if (relisted.length === 0) return;
    // A plan deleted from the team is not the team's again: its entry goes, on every member's list.
    handle.change((doc) => {
      for (const id of relisted) delete doc.documents[id];
    });
    options.log?.(`took ${relisted.length} deleted plan(s) off the team's list again: ${relisted.join(", ")}`);
  };

  const onHeadsChanged = () => {
    if (stopped) return;
    const current = listedIds(handle.doc());
    const gone = [...listed].filter((id) => !current.has(id) && id !== teamIndexDocumentId);
    listed = current;
    const recorded: string[] = [];
    // A plan's conversation (issue #25) is deleted with it: it lives at an id derived from the plan's.
    for (const id of gone.flatMap((plan) => [plan, ...conversationOf(plan)])) {
      try {
        if (deleted.record(id, now())) recorded.push(id);
      } catch (error) {
        // Refused from memory all the same; the row is written when the entry is seen leaving again, or never.
        options.log?.(`could not record the deletion of ${id}: ${String(error)}`);
        recorded.push(id);
      }
    }
    if (recorded.length > 0) {
      options.log?.(`deleted from the team's list: ${recorded.join(", ")}`);
      options.onDeleted(recorded);
    }
    sweepRelisted(current);
  };
  handle.on("heads-changed", onHeadsChanged);
  // Entries a member wrote for an already deleted plan while the relay was down.
  sweepRelisted(listed);
  return {
    stop() {
      stopped = true;
      handle.off("heads-changed", onHeadsChanged);
    },
  };
}

/** The conversation id of a plan id (none for an id that is not a document id: nothing to derive from). */
function conversationOf(planId: string): string[] {
  return isValidDocumentId(planId) ? [conversationIdOf(planId as DocumentId)] : [];
}
