// @vitest-environment jsdom
/**
 * A failed turn's Retry in the chat with an agent (issue #27, conversation/TurnRetry.tsx), over the window's test
 * double with the agent's app played by agent-chat-turns.ts: the failed answer offers the person "Retry: <first
 * words>", which sends the asked words through sendAgentChat under `retry:<turnId>` (two clicks, one message); none
 * while the retry's turn runs; its own failure retries under its own turn's id; never for a message not the person's,
 * nor once the agent is gone (the chat takes no messages).
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderAppWithScoutChatOpen } from "../test/render-app.js";
import { beginAgentTurn, chatPlanIdOf } from "../test/agent-chat-turns.js";
import { retryRequestId } from "../conversation/TurnRetry.js";

afterEach(cleanupApps);

const box = () => screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;
const log = () => screen.getByRole("log", { name: "Messages" });
const retries = () => screen.queryAllByRole("button", { name: /^Retry: / });

async function openChat() {
  const { app, scout } = await renderAppWithScoutChatOpen();
  fireEvent.change(box(), { target: { value: "Plan the launch", selectionStart: 15 } });
  fireEvent.keyDown(box(), { key: "Enter" });
  const planId = chatPlanIdOf(scout.id);
  await until(() => screen.queryByRole("log", { name: "Messages" }) !== null && within(log()).queryByText("Plan the launch") !== null, "sent");
  const retryCalls = () => app.bridge.calls.filter((c) => c.method === "sendAgentChat" && String((c.args[1] as { clientRequestId: string }).clientRequestId).startsWith("retry:"));
  const mine = () => app.bridge.conversations(planId).filter((e) => e.mine);
  return { app, scout, planId, retryCalls, mine };
}

describe("a failed turn's retry in a chat", () => {
  it("sends the asked words through sendAgentChat once under retry:<turnId>; none while its turn runs; its failure retries under its own id", async () => {
    const { app, scout, planId, retryCalls, mine } = await openChat();
    const asked = mine()[0]!;
    beginAgentTurn(app.bridge, planId, asked.id).fail("Bad gateway.");
    await until(() => within(log()).queryByText("This turn failed.", { exact: false }) !== null, "the failure shown");
    await until(() => screen.queryByRole("button", { name: "Retry: Plan the launch" }) !== null, "its Retry");
    const button = screen.getByRole("button", { name: "Retry: Plan the launch" });
    fireEvent.click(button);
    fireEvent.click(button);
    await until(() => retryCalls().length === 2, "both clicks sent");
    for (const call of retryCalls()) expect(call.args).toEqual([scout.id, { text: "Plan the launch", clientRequestId: retryRequestId(asked.id) }]);
    await until(() => mine().length === 2, "the retry in the chat");
    expect(mine().map((e) => e.text)).toEqual(["Plan the launch", "Plan the launch"]);

    // The retry's turn runs: no Retry meanwhile; it fails too, and its own Retry derives from its own turn.
    const retried = mine()[1]!;
    const turn = beginAgentTurn(app.bridge, planId, retried.id);
    await until(() => within(log()).queryByText("Working on it…", { exact: false }) !== null, "the retry's turn running");
    expect(retries()).toHaveLength(0);
    turn.fail("Bad gateway again.");
    await until(() => retries().length === 2, "both failures offer a Retry");
    fireEvent.click(retries()[1]!);
    await until(() => retryCalls().length === 3, "the second retry sent");
    expect(retryCalls()[2]!.args[1]).toEqual({ text: "Plan the launch", clientRequestId: retryRequestId(retried.id) });
    await until(() => mine().length === 3, "a third message");
  });

  it("offers a Retry for the person's message sent from their other device (a chat is theirs alone), none once the agent is gone", async () => {
    const { app, scout, planId, mine } = await openChat();
    beginAgentTurn(app.bridge, planId, mine()[0]!.id).fail("Bad gateway.");
    // Only the chat's person posts in it (the core refuses anyone else), so a message from another device is theirs.
    const laptop = app.bridge.receiveMessage(planId, { author: { kind: "person", name: "Ada", device: "device-laptop" }, to: "planner", text: "Sent from the laptop" });
    beginAgentTurn(app.bridge, planId, laptop.id).fail("Bad gateway.");
    await until(() => within(log()).queryAllByText("This turn failed.", { exact: false }).length === 2, "both failures shown");
    expect(retries().map((b) => b.getAttribute("aria-label"))).toEqual(["Retry: Plan the launch", "Retry: Sent from the laptop"]);
    await app.bridge.api.removeAgent(scout.id);
    await until(() => screen.queryByText(/This agent was removed/) !== null, "gone");
    expect(retries()).toHaveLength(0);
  });
});
