/**
 * The chat directive's text as a session gets it (chat-directive.ts): delimited, whole, and saying plainly which of
 * edit_plan and hand_off_plan the session lacks, so an agent is never told to use a tool it does not have.
 */
import { describe, expect, it } from "vitest";
import { CHAT_DIRECTIVE, CHAT_DIRECTIVE_BEGIN, CHAT_DIRECTIVE_END, chatDirective, HAND_OFF_TOOL } from "./chat-directive.js";

describe("the chat directive", () => {
  it("asks to clarify in text, draft in the chat's plan, claim documents only after hand_off_plan, and invent no status", () => {
    expect(CHAT_DIRECTIVE).toMatch(/Clarify first.*plain questions in text \(there is no question tool\)/);
    expect(CHAT_DIRECTIVE).toMatch(/draft the plan in the chat's own plan: read it with read_plan, change it only with edit_plan/);
    expect(CHAT_DIRECTIVE).toMatch(new RegExp(`only after you created it with the ${HAND_OFF_TOOL} tool and its result said it succeeded`));
    expect(CHAT_DIRECTIVE).toMatch(/Do not invent reviewers, approvals, assignees, progress or status/);
  });

  it("is delimited and whole, with nothing more when the session has both tools", () => {
    expect(chatDirective(["read_plan", "edit_plan", HAND_OFF_TOOL])).toBe(`${CHAT_DIRECTIVE_BEGIN}\n${CHAT_DIRECTIVE}\n${CHAT_DIRECTIVE_END}`);
  });

  it("says which tool the session lacks", () => {
    const without = chatDirective(["read_plan"]);
    expect(without).toMatch(/no edit_plan tool: put your draft in your reply/);
    expect(without).toMatch(/no hand_off_plan tool: you cannot create documents, so never say that one exists/);
    expect(chatDirective(["read_plan", "edit_plan"])).not.toMatch(/no edit_plan tool/);
  });
});
