/**
 * A plan handed off from an agent chat (issue #27), made at the id its handoff reserved (main/store/plan-handoffs.ts)
 * and listed like a created plan, shared with the team when the chat is the team's. Made at a reserved id rather than
 * a fresh one so a retry, also after a crash before the plan reached disk, makes this same plan and never a second.
 *
 * What must stay true: the plan begins as one change imported whole (stored all or not at all); a plan held at the id
 * is opened, never made again over it (anything there that is not a plan is refused 'invalid-document'); the
 * answer comes once the plan and the indexes naming it are on disk; a handoff already committed whose plan is no
 * longer here is refused 'not-found', never made again (it was archived and deleted, or left with the team).
 */
import type { DocumentId } from "@automerge/automerge-repo";
import type { DocumentDetail } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import { PLAN_DOCUMENT_SCHEMA_VERSION, type PlanDocument } from "../../shared/schema/plan-document.js";
import { checkMarkdown, normalizeNewTitle } from "./bounds.js";
import type { AgentAuthor } from "./change-messages.js";
import type { PlanAccess } from "./plan-access.js";
import { readPlan, type PlanHandle } from "./plan-reader.js";

export interface HandoffPlanStart {
  documentId: DocumentId;
  title: string;
  markdown: string;
  /** The chat is the configured relay team's: the new plan is shared with it. */
  shared: boolean;
  /** The agent making it (its change credited to it); absent: the person at this device. */
  by?: AgentAuthor;
  /** False once the handoff was committed: a plan no longer here is not made again. */
  mayCreate: boolean;
}

export async function openOrCreateHandoffPlan(access: PlanAccess, start: HandoffPlanStart, holds: (id: string) => boolean): Promise<DocumentDetail> {
  const { repo } = access;
  const { documentId } = start;
  const held = repo.handles[documentId]?.isReady() === true || holds(documentId);
  if (!held && !start.mayCreate) {
    throw new ChopinError("not-found", "The plan this handoff made is no longer on this device (it was deleted), so it was not made again.");
  }
  // Checked before anything is made: a refusal leaves nothing behind.
  const title = normalizeNewTitle(start.title);
  const markdown = checkMarkdown(start.markdown);
  const now = access.now();
  const handle: PlanHandle = held
    ? await repo.find<PlanDocument>(documentId)
    : // The plan's one first change, imported whole: storage holds all of it or none of it.
      repo.import<PlanDocument>(
        access.firstChange((doc) => {
          const init: PlanDocument = {
            schemaVersion: PLAN_DOCUMENT_SCHEMA_VERSION,
            kind: "plan",
            title,
            text: markdown,
            repository: null,
            createdVia: "app",
            provenance: null,
            brief: null,
            archivedAt: null,
            createdAt: now,
            updatedAt: now,
            authors: {},
          };
          Object.assign(doc, init);
        }, start.by),
        { docId: documentId },
      );
  await handle.whenReady();
  access.track(handle);
  let plan: PlanDocument;
  try {
    plan = readPlan(handle);
  } catch {
    throw new ChopinError("invalid-document", "The document at this handoff's id is not a plan, so the plan was not handed off.");
  }
  access.listIfUnlisted(handle, plan, start.shared);
  await repo.flush([documentId, ...access.indexes.documentIds()]);
  return access.detailOf(handle, plan);
}
