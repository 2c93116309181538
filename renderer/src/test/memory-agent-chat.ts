/**
 * The agent-chat part of the window's test double (memory-bridge.ts): the AgentChatApi contract kept in memory
 * (shared/api-contract-agent-chat.ts runs against it and the real core alike). A chat is a hidden plan (marked
 * `agentChat`, left out of the list) with its conversation, begun by the first send, as in the core; its state is
 * the core's own rule (shared/agent-chat-state.ts). Its outbox delivers every send at once (the double is local-only
 * and never stops), so nothing is ever queued, but a key reused for another text or agent is refused as the core's
 * outbox refuses it, and a discard is refused as the core refuses it for a delivered send or an unknown key.
 */
import type { AgentChatApi, ChopinApi, DocumentDetail } from "../../../shared/api.js";
import { agentChatState } from "../../../shared/agent-chat-state.js";
import { ChopinError } from "../../../shared/errors.js";
import { handoffCardText, handoffMarkdown } from "../../../shared/plan-handoff.js";
import type { MemoryConversations } from "./memory-conversations.js";

export interface MemoryAgentChatDeps {
  /** The profiles' find: refuses as the core does ('agent-chat-disabled', 'agent-not-found'). */
  needAgent(agentId: string): Promise<void>;
  /** This window's person key ("device:<id>" in the double). */
  person(): string;
  docs: Map<string, DocumentDetail>;
  now(): number;
  api: Pick<ChopinApi, "readConversation" | "postMessage" | "getPlannerState" | "abortPlannerTurn" | "createDocument">;
  /** The card's entry, written as the core's ConversationService.recordHandoff writes it. */
  recordHandoff: MemoryConversations["recordHandoff"];
}

/** As the core names a chat's person: a GitHub user by login, a device by its key alone. */
function personOf(key: string): { key: string; name?: string; login?: string } {
  const login = key.startsWith("github:") ? key.slice("github:".length) : undefined;
  return login ? { key, name: login, login } : { key };
}

export function memoryAgentChat(deps: MemoryAgentChatDeps): AgentChatApi {
  const planIdOf = (agentId: string) => `chat-${agentId}-${deps.person()}`;
  const sends = new Map<string, { agentId: string; text: string; entryId?: string }>();
  /** (chat plan, clientRequestId) -> the plan it made: the double's stand-in for the core's plan_handoffs table. */
  const handoffs = new Map<string, string>();
  return {
    async readAgentChat(agentId, query) {
      await deps.needAgent(agentId);
      const planId = planIdOf(agentId);
      if (!deps.docs.has(planId)) return null;
      const [page, planner] = await Promise.all([deps.api.readConversation(planId, query), deps.api.getPlannerState(planId)]);
      const all = page.hasMore ? await deps.api.readConversation(planId, { limit: page.total }) : page;
      return { planId, page, state: agentChatState(all.entries, planner), planner, outbox: [] };
    },
    async sendAgentChat(agentId, input) {
      await deps.needAgent(agentId);
      const earlier = sends.get(input.clientRequestId);
      if (earlier && (earlier.agentId !== agentId || earlier.text !== input.text)) {
        throw new ChopinError("invalid-input", "clientRequestId: this key was already used for another message (another text or agent); a retry sends the same message with the same key. Nothing was sent.", { field: "clientRequestId" });
      }
      sends.set(input.clientRequestId, { agentId, text: input.text });
      const planId = planIdOf(agentId);
      if (!deps.docs.has(planId)) {
        const at = deps.now();
        deps.docs.set(planId, {
          id: planId,
          url: `automerge:${planId}`,
          title: "Agent chat",
          createdVia: "app",
          archivedAt: null,
          createdAt: at,
          updatedAt: at,
          shared: false,
          repository: null,
          provenance: null,
          brief: null,
          revision: "r0",
          agentChat: { agentId, person: deps.person() },
        });
      }
      const { entry, created } = await deps.api.postMessage(planId, { text: input.text, to: "planner", clientRequestId: input.clientRequestId });
      sends.set(input.clientRequestId, { agentId, text: input.text, entryId: entry.id });
      return { queued: false, planId, entry, created };
    },
    async discardAgentChatSend(agentId, clientRequestId) {
      // As the core, only the switch is asked: then every send of this chat was delivered, or none has that key.
      await deps.needAgent("planner");
      const send = sends.get(clientRequestId);
      if (send?.agentId !== agentId) {
        throw new ChopinError("not-found", "No message of yours to this agent waits under that clientRequestId (it was never sent from this device, or was discarded already), so nothing was discarded.");
      }
      throw new ChopinError("revision-conflict", "This message was already delivered: it is in the conversation, so it was not discarded. Withdraw it there instead.", { entryId: send.entryId ?? null });
    },
    async listAgentChats() {
      // The double is local-only: its table is the chats begun here (and any a test put in `docs`), oldest first.
      await deps.needAgent("planner");
      return [...deps.docs.values()].flatMap((doc) =>
        doc.agentChat ? [{ agentId: doc.agentChat.agentId, planId: doc.id, person: personOf(doc.agentChat.person), mine: doc.agentChat.person === deps.person() }] : [],
      );
    },
    async stopAgentChat(agentId) {
      await deps.needAgent(agentId);
      const planId = planIdOf(agentId);
      if (!deps.docs.has(planId)) throw new ChopinError("not-found", "This chat has not begun, so no turn of the agent is running.");
      return deps.api.abortPlannerTurn(planId);
    },
    async handOffAgentChatPlan(agentId, input) {
      await deps.needAgent(agentId);
      const planId = planIdOf(agentId);
      const chat = deps.docs.get(planId);
      if (!chat) throw new ChopinError("not-found", "This chat has not begun, so it has no plan to hand off.");
      const key = `${planId}\n${input.clientRequestId}`;
      let documentId = handoffs.get(key);
      if (documentId === undefined) {
        // The double keeps no plan text: the new plan holds the brief (the core's puts the chat plan's Markdown after it).
        documentId = (await deps.api.createDocument({ title: input.title, markdown: handoffMarkdown(input.brief, ""), shared: chat.shared })).id;
        handoffs.set(key, documentId);
      }
      const made = deps.docs.get(documentId);
      if (!made) throw new ChopinError("not-found", "The plan this handoff made is no longer on this device (it was deleted), so it was not made again.");
      const entry = deps.recordHandoff(planId, { text: handoffCardText(made.title), handoff: { documentId, title: made.title }, clientRequestId: `handoff:${documentId}` });
      return { documentId, entry };
    },
  };
}
