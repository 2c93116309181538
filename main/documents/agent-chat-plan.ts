/**
 * An agent chat's own plan (issue #27): opened where this device holds it or a list names it, else begun at its
 * derived id from the genesis every device begins it from (shared/node/agent-chat-identity.ts) and listed like a new
 * plan, shared with the team when the chat is the team's. Two first sends (two windows, two devices of one person)
 * therefore begin the same document, and their lists' entries name the same id.
 *
 * What must stay true: a plan held in storage is opened from it, never begun again over it; `exists` reads only (no
 * handle made, nothing stored or listed), so a chat never used stays unmade; the plan found at the id must carry the
 * same chat's mark, or nothing is listed and it is refused as 'invalid-document'.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import type { DocumentDetail } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import type { AgentChatMark, PlanDocument } from "../../shared/schema/plan-document.js";
import type { PlanAccess } from "./plan-access.js";
import { readPlan } from "./plan-reader.js";

/** Whether the chat's plan is on this device or named by one of its lists (a teammate's device began it). */
export function agentChatPlanExists(access: PlanAccess, documentId: DocumentId, holds: (id: string) => boolean): boolean {
  return access.repo.handles[documentId]?.isReady() === true || access.indexes.knows(documentId) || holds(documentId);
}

/** The chat plans this device's lists name (never listed among plans: their conversations still need mapping). */
export function agentChatPlanIds(access: PlanAccess): string[] {
  return [...access.indexes.list()].flatMap(([id, listed]) => (listed.entry.agentChat ? [id] : []));
}

/** The chat plans this device's lists name, each with its mark (whose chat with which agent). */
export function agentChatPlans(access: PlanAccess): { planId: DocumentId; mark: AgentChatMark }[] {
  return [...access.indexes.list()].flatMap(([id, listed]) => (listed.entry.agentChat ? [{ planId: id as DocumentId, mark: listed.entry.agentChat }] : []));
}

export interface AgentChatPlanStart {
  documentId: DocumentId;
  mark: AgentChatMark;
  genesis: () => Uint8Array;
  /** The chat is the configured relay team's: the plan is shared with it. */
  shared: boolean;
}

export async function openOrBeginAgentChatPlan(access: PlanAccess, start: AgentChatPlanStart, holds: (id: string) => boolean): Promise<DocumentDetail> {
  const { repo } = access;
  const { documentId } = start;
  const held = repo.handles[documentId]?.isReady() === true || holds(documentId);
  // Neither loaded nor stored: begun from the shared genesis (listed by a teammate's device or not: the same bytes).
  const handle = held ? await repo.find<PlanDocument>(documentId) : repo.import<PlanDocument>(start.genesis(), { docId: documentId });
  await handle.whenReady();
  const plan = readPlan(handle);
  if (plan.agentChat?.agentId !== start.mark.agentId || plan.agentChat.person !== start.mark.person) {
    // Begun here from the wrong bytes: nothing of it stays.
    if (!held) repo.delete(documentId);
    throw new ChopinError("invalid-document", "The document at this agent chat's id is not that chat's plan, so the chat was not begun.");
  }
  access.track(handle);
  if (access.listIfUnlisted(handle, plan, start.shared)) await repo.flush([documentId, ...access.indexes.documentIds()]);
  return access.detailOf(handle, plan);
}
