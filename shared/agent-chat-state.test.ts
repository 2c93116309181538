/**
 * The agent chat state rule (issue #27) at its edges: waiting with nothing asked; active from a message to the agent
 * through its running turn until its answer, and while a later message is pending; waiting when the only unanswered
 * turn was interrupted or the message withdrawn.
 */
import { describe, expect, it } from "vitest";
import type { ConversationEntryView } from "./api.js";
import { agentChatState } from "./agent-chat-state.js";

const person = { kind: "person", name: "Ada", device: "d1" } as const;
let n = 0;
const message = (over: Partial<ConversationEntryView> = {}): ConversationEntryView => ({
  id: (++n).toString(16).padStart(32, "0"),
  seq: n,
  author: person,
  to: "planner",
  text: "hi",
  at: n,
  mine: true,
  delivery: "local",
  unread: false,
  ...over,
});
const planner = (turnId: string, state: "started" | "answered", ownershipGeneration = 1) => message({ author: { kind: "planner" }, to: "room", turn: { id: turnId, state, ownershipGeneration } });
const owned = { owner: { user: "ada", device: "d1" }, ownershipGeneration: 1 };

describe("an agent chat's state", () => {
  it("is waiting with nothing said, and with only room messages", () => {
    expect(agentChatState([], owned)).toBe("waiting");
    expect(agentChatState([message({ to: "room" })], owned)).toBe("waiting");
  });

  it("is active from a message to the agent, through its running turn, until its answer", () => {
    const asked = message();
    expect(agentChatState([asked], { owner: null, ownershipGeneration: 0 })).toBe("active");
    expect(agentChatState([asked, planner(asked.id, "started")], owned)).toBe("active");
    expect(agentChatState([asked, planner(asked.id, "started"), planner(asked.id, "answered")], owned)).toBe("waiting");
  });

  it("stays active while a later message is pending after an answer", () => {
    const first = message();
    const second = message();
    expect(agentChatState([first, second, planner(first.id, "answered")], owned)).toBe("active");
  });

  it("is waiting when the only unanswered turn was interrupted, or the message withdrawn", () => {
    const asked = message();
    expect(agentChatState([asked, planner(asked.id, "started", 1)], { owner: { user: "ada", device: "d2" }, ownershipGeneration: 2 })).toBe("waiting");
    expect(agentChatState([message({ withdrawn: true })], owned)).toBe("waiting");
  });
});
