/**
 * The conversations part of ChopinApi (issue #25), built beside its service: every call's arguments are checked at
 * the boundary (shared/api-arguments.ts) before the service reads them, and a plan id is parsed like any other.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import type { ConversationsApi } from "../../shared/api.js";
import { parseDocumentId } from "../documents/document-id.js";
import { checkedApi } from "../util/checked-api.js";
import type { ConversationService } from "./conversation-service.js";

type Conversations = Pick<ConversationService, "read" | "post" | "draft" | "setDraft" | "markRead" | "withdraw" | "requestAbort">;

/**
 * `plannerAsked`: a message to the Planner was sent (also a retry): the Planner is invoked in the background; the send
 * is answered once the message is on disk, whoever runs the Planner.
 */
export function createConversationsApi(conversations: Conversations, plannerAsked: (planId: DocumentId) => void = () => {}): ConversationsApi {
  return checkedApi<ConversationsApi>({
    readConversation: (id, query) => conversations.read(parseDocumentId(id), query),
    postMessage: async (id, input) => {
      const planId = parseDocumentId(id);
      const result = await conversations.post(planId, input);
      if (input.to === "planner") plannerAsked(planId);
      return result;
    },
    getConversationDraft: (id) => conversations.draft(parseDocumentId(id)),
    setConversationDraft: (id, text) => conversations.setDraft(parseDocumentId(id), text),
    markConversationRead: (id, entryId) => conversations.markRead(parseDocumentId(id), entryId),
    withdrawMessage: (id, entryId) => conversations.withdraw(parseDocumentId(id), entryId),
    abortPlannerTurn: (id) => conversations.requestAbort(parseDocumentId(id)),
  });
}
