/**
 * Test support for agent chats: a send answered as delivered (its entry), or the test fails saying it was queued in
 * the outbox instead (main/agent-chat/chat-outbox.ts), so a test that means a delivered send never reads a null entry.
 */
import type { AgentChatSendDelivered, AgentChatSendResult } from "../../shared/api.js";

export function delivered(result: AgentChatSendResult): AgentChatSendDelivered {
  if (result.queued) throw new Error(`the send was queued, not delivered: ${JSON.stringify(result.message)}`);
  return result;
}
