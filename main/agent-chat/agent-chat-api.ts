/**
 * The agent-chat part of ChopinApi (issue #27), built beside its service: arguments are checked at the boundary
 * (shared/api-arguments.ts) before the service sees them. No events of its own: a chat's are its plan's
 * ("conversation-changed", "planner-changed", "planner-turn", keyed by the chat's planId).
 */
import type { AgentChatApi } from "../../shared/api.js";
import { checkedApi } from "../util/checked-api.js";
import type { AgentChatService } from "./agent-chat-service.js";

export function createAgentChatApi(chats: Pick<AgentChatService, "read" | "send" | "discard" | "stop" | "list" | "handOff">): AgentChatApi {
  return checkedApi<AgentChatApi>({
    readAgentChat: (agentId, query) => chats.read(agentId, query),
    sendAgentChat: (agentId, input) => chats.send(agentId, input),
    discardAgentChatSend: (agentId, clientRequestId) => chats.discard(agentId, clientRequestId),
    stopAgentChat: (agentId) => chats.stop(agentId),
    listAgentChats: () => chats.list(),
    handOffAgentChatPlan: (agentId, input) => chats.handOff(agentId, input),
  });
}
