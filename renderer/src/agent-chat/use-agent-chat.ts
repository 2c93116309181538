/**
 * This person's chat with one agent as its view shows it (issue #27): read with readAgentChat when the view opens
 * (null for a chat never used: a read, nothing is made), then again whenever the core says the chat's plan changed
 * ("conversation-changed", "planner-changed"), so its state (waiting, active) follows the agent's turns; sends through
 * sendAgentChat, which begins the chat on the first one.
 *
 * What must stay true: a send carries one clientRequestId per draft, kept while its words are unchanged, so a Retry of
 * a send whose answer was lost can only ever return the entry the first try made, never a second one; words edited
 * after a failure are a new message with a new id. An older read answering after a newer one is never shown.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { AgentChat, AgentChatNotBegun, AgentChatOutboxMessage } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { AGENT_CHAT_STATE_READ_ENTRIES } from "../limits.js";
import type { SendOutcome } from "../conversation/use-conversation.js";
import type { RetryTurn } from "../conversation/TurnRetry.js";

export interface AgentChatModel {
  /** undefined until the first read answers; null for a chat never used; not begun while its first sends wait here. */
  chat: AgentChat | AgentChatNotBegun | null | undefined;
  /** The chat's plan once known (the first send tells it when the first read found none). */
  planId: string | null;
  /** Why the last read failed, or null. */
  error: string | null;
  /** Why the last send did not reach the core (its words wait in the composer), or null. */
  unsent: string | null;
  send(text: string): Promise<SendOutcome>;
  /** Sends again a send the outbox refused for good, with its own id and words (the outbox re-arms its row). */
  resend(message: AgentChatOutboxMessage): Promise<void>;
  /** Discards a send waiting in the outbox (discardAgentChatSend): true once it is gone; false, saying why, else. */
  discard(message: AgentChatOutboxMessage): Promise<boolean>;
  /** Why the last discard was refused (delivered meanwhile: it is in the conversation), or null. */
  discardRefusal: string | null;
  stop(): Promise<unknown>;
  /**
   * Sends a failed or interrupted turn's message again under the turn's own key (TurnRetry.tsx), so every try of that
   * retry is one message; a refusal is thrown for the transcript to say.
   */
  retryTurn: RetryTurn;
}

function newRequestId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === "function") return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** `on`: agent chat is on here; reads wait for it (every call is refused while it is off). */
export function useAgentChat(agentId: string, on: boolean): AgentChatModel {
  const { bridge } = useServices();
  const [chat, setChat] = useState<AgentChat | AgentChatNotBegun | null | undefined>(undefined);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [unsent, setUnsent] = useState<string | null>(null);
  const [discardRefusal, setDiscardRefusal] = useState<string | null>(null);
  const reads = useRef({ asked: 0, shown: 0 });
  /** The draft whose send has not been confirmed: its words and the id every try of it carries. */
  const pending = useRef<{ text: string; clientRequestId: string } | null>(null);
  const planId = chat?.planId ?? sentTo;

  const read = useCallback(async () => {
    const n = ++reads.current.asked;
    try {
      const next = await bridge.api.readAgentChat(agentId, { limit: AGENT_CHAT_STATE_READ_ENTRIES });
      if (n < reads.current.shown) return;
      reads.current.shown = n;
      setChat(next);
      setError(null);
    } catch (failure) {
      if (n >= reads.current.shown) setError(describeError(failure));
    }
  }, [bridge, agentId]);

  useEffect(() => {
    if (on) void read();
  }, [on, read]);

  // A chat never used here may be begun meanwhile by the person's other device: its plan arrives as a document, so
  // while there is none yet every change of the documents is a reason to read again (a read of nothing is cheap).
  const unbegun = chat === null || (chat !== undefined && chat.planId === null);
  useEffect(() => {
    if (!on || !unbegun) return;
    return bridge.on("documents-changed", () => void read());
  }, [bridge, on, unbegun, read]);

  // The outbox's sends move without the plan changing (queued, delivered once the team is known, refused).
  useEffect(() => {
    if (!on) return;
    return bridge.on("agent-chat-outbox-changed", (event) => event.agentId === agentId && void read());
  }, [bridge, on, agentId, read]);

  useEffect(() => {
    if (!on || planId === null) return;
    const offConversation = bridge.on("conversation-changed", ({ documentId }) => documentId === planId && void read());
    const offPlanner = bridge.on("planner-changed", ({ documentId }) => documentId === planId && void read());
    return () => {
      offConversation();
      offPlanner();
    };
  }, [bridge, on, planId, read]);

  const send = useCallback(
    async (text: string): Promise<SendOutcome> => {
      const draft = pending.current?.text === text ? pending.current : { text, clientRequestId: newRequestId() };
      pending.current = draft;
      try {
        const result = await bridge.api.sendAgentChat(agentId, draft);
        if (pending.current === draft) pending.current = null;
        setSentTo(result.planId);
        setUnsent(null);
        await read();
        return "sent";
      } catch (failure) {
        setUnsent(describeError(failure));
        return "unsent";
      }
    },
    [bridge, agentId, read],
  );

  const resend = useCallback(
    async (message: AgentChatOutboxMessage) => {
      try {
        await bridge.api.sendAgentChat(agentId, { text: message.text, clientRequestId: message.clientRequestId });
        setUnsent(null);
      } catch (failure) {
        setUnsent(describeError(failure));
      }
      await read();
    },
    [bridge, agentId, read],
  );

  const discard = useCallback(
    async (message: AgentChatOutboxMessage) => {
      let gone = false;
      try {
        await bridge.api.discardAgentChatSend(agentId, message.clientRequestId);
        gone = true;
        setDiscardRefusal(null);
      } catch (failure) {
        setDiscardRefusal(describeError(failure));
      }
      await read();
      return gone;
    },
    [bridge, agentId, read],
  );

  const stop = useCallback(() => bridge.api.stopAgentChat(agentId), [bridge, agentId]);

  const retryTurn = useCallback<RetryTurn>(
    async (request) => {
      const result = await bridge.api.sendAgentChat(agentId, { text: request.text, clientRequestId: request.clientRequestId });
      await read();
      return result;
    },
    [bridge, agentId, read],
  );

  return { chat, planId, error, unsent, send, resend, discard, discardRefusal, stop, retryTurn };
}
