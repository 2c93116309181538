/**
 * The conversations part of ChopinApi (issue #25), built beside its service: every call's arguments are checked at
 * the boundary (shared/api-arguments.ts) before the service reads them, and a plan id is parsed like any other.
 */
import type { ConversationsApi } from "../../shared/api.js";
import { parseDocumentId } from "../documents/document-id.js";
import { checkedApi } from "../util/checked-api.js";
import type { ConversationService } from "./conversation-service.js";

type Conversations = Pick<ConversationService, "read" | "post" | "draft" | "setDraft" | "markRead">;

export function createConversationsApi(conversations: Conversations): ConversationsApi {
  return checkedApi<ConversationsApi>({
    readConversation: (id, query) => conversations.read(parseDocumentId(id), query),
    postMessage: (id, input) => conversations.post(parseDocumentId(id), input),
    getConversationDraft: (id) => conversations.draft(parseDocumentId(id)),
    setConversationDraft: (id, text) => conversations.setDraft(parseDocumentId(id), text),
    markConversationRead: (id, entryId) => conversations.markRead(parseDocumentId(id), entryId),
  });
}
