/**
 * The documents a message may reference (`#` in the composer, issue #26): another document of the same bound
 * repository, or any when the plan is bound to none; for a shared plan only documents shared with the same team, so
 * a reference never carries a private document's title to teammates. Each is recorded with its title and the revision
 * the person saw, so the Planner can tell whether it changed since.
 *
 * What must stay true: a refused reference refuses the whole message with a sentence naming the document, and nothing
 * is posted; the plan itself is never a reference (read_plan reads it).
 */
import type { DocumentDetail } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import { MAX_MESSAGE_REFERENCES } from "../../shared/limits.js";
import type { MessageReference } from "../../shared/schema/conversation.js";

export interface ReferenceDeps {
  getDocument(id: string): Promise<DocumentDetail>;
}

/** Whether two repository bindings name the same repository (by GitHub's node id when both have one). */
function sameRepository(a: NonNullable<DocumentDetail["repository"]>, b: NonNullable<DocumentDetail["repository"]>): boolean {
  if (a.nodeId && b.nodeId) return a.nodeId === b.nodeId;
  return a.owner.toLowerCase() === b.owner.toLowerCase() && a.name.toLowerCase() === b.name.toLowerCase();
}

export async function resolveReferences(plan: DocumentDetail, ids: readonly string[], deps: ReferenceDeps): Promise<MessageReference[]> {
  const distinct = [...new Set(ids)];
  if (distinct.length > MAX_MESSAGE_REFERENCES) throw new ChopinError("invalid-input", `A message can reference at most ${MAX_MESSAGE_REFERENCES} documents.`);
  const references: MessageReference[] = [];
  for (const id of distinct) {
    const detail = await deps.getDocument(id).catch(() => {
      throw new ChopinError("not-found", `A referenced document (${id.slice(0, 40)}) is not on this device. Nothing was posted.`);
    });
    if (detail.id === plan.id) throw new ChopinError("invalid-input", "A plan's conversation cannot reference the plan itself: the Planner reads it anyway. Nothing was posted.");
    if (plan.repository && (!detail.repository || !sameRepository(plan.repository, detail.repository))) {
      throw new ChopinError("forbidden", `“${detail.title}” is not a document of ${plan.repository.owner}/${plan.repository.name}, the repository this plan is bound to; only those can be referenced here. Nothing was posted.`);
    }
    if (plan.shared && !detail.shared) {
      throw new ChopinError("forbidden", `“${detail.title}” is private to this device; a shared plan's conversation can reference only documents shared with the team. Nothing was posted.`);
    }
    references.push({ documentId: detail.id, title: detail.title, revision: detail.revision });
  }
  return references;
}
