/**
 * Test support (imported only by *.test.tsx): the agent's app in a chat, played over the window's test double
 * (memory-bridge.ts), as the core's turn runner writes it: it takes the chat (its owner), marks the turn begun,
 * streams progress ("planner-turn"), and answers (or fails), or answers a `/new` with a boundary entry. Entries arrive
 * as the relay would bring them (memory-conversations.ts `receive`).
 */
import type { MemoryBridge } from "./memory-bridge.js";

/** The chat's plan in the double (memory-agent-chat.ts derives it so). */
export function chatPlanIdOf(agentId: string): string {
  return `chat-${agentId}-device:device-memory`;
}

export interface PlayedTurn {
  /** Streams the answer so far. */
  stream(text: string): void;
  answer(text: string): void;
  /** Answers with the model provider's failure, as the runner writes it (`failed`, naming who could not answer). */
  fail(reason: string): void;
}

/** Begins the agent's turn for the message `messageId` in `planId`, with this app running the agent. */
export function beginAgentTurn(bridge: MemoryBridge, planId: string, messageId: string): PlayedTurn {
  bridge.setPlannerOwner(planId, { user: "ada", device: "device-memory" });
  const ownershipGeneration = 1;
  bridge.receiveMessage(planId, { author: { kind: "planner" }, text: "", turn: { id: messageId, state: "started", ownershipGeneration } });
  return {
    stream: (text) => bridge.emit("planner-turn", { documentId: planId, turnId: messageId, text, tools: [], done: false }),
    answer: (text) => {
      bridge.emit("planner-turn", { documentId: planId, turnId: messageId, text, tools: [], done: true });
      bridge.receiveMessage(planId, { author: { kind: "planner" }, text, turn: { id: messageId, state: "answered", ownershipGeneration } });
    },
    fail: (reason) => {
      bridge.emit("planner-turn", { documentId: planId, turnId: messageId, text: "", tools: [], done: true });
      bridge.receiveMessage(planId, { author: { kind: "planner" }, text: `The model provider failed, so the agent could not answer: ${reason}`, failed: true, turn: { id: messageId, state: "answered", ownershipGeneration } });
    },
  };
}

/** The agent's app processing a `/new` (the message `messageId`): a boundary entry answering it. */
export function answerNewSession(bridge: MemoryBridge, planId: string, messageId: string): void {
  bridge.receiveMessage(planId, {
    author: { kind: "planner" },
    text: "New Planner session: the Planner starts afresh from here, with nothing said before this line.",
    boundary: true,
    turn: { id: messageId, state: "answered", ownershipGeneration: 1 },
  });
}
