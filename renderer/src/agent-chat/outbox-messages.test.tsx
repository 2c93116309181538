// @vitest-environment jsdom
/**
 * Sends that wait in this device's outbox show in the chat (issue #27): a send the core queued (the relay's team not
 * known yet) leaves the composer and shows "Waiting to send"; one refused for good says why with a Retry that carries
 * its own clientRequestId and words; when the outbox moves ("agent-chat-outbox-changed") the chat is read again. The
 * window's double never queues, so the core's answers are played here by replacing its two calls.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import type { AgentChatNotBegun, AgentChatOutboxMessage, AgentChatSendInput, AgentChatSendResult } from "../../../shared/api.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

const box = () => screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;
const waitingList = () => screen.queryByRole("list", { name: "Waiting to send" });

describe("sends waiting in the outbox", () => {
  it("lists a queued send, a refused one with its Retry, and reads again when the outbox moves", async () => {
    const app = renderApp();
    await app.bridge.api.updateExperimentalSettings({ enableAgentChat: true });
    const scout = await app.bridge.api.createAgent({ name: "Scout", color: "teal" });
    let outbox: AgentChatOutboxMessage[] = [];
    const sent: AgentChatSendInput[] = [];
    const notBegun = (): AgentChatNotBegun | null => (outbox.length === 0 ? null : { planId: null, page: null, planner: null, state: "active", outbox });
    Object.assign(app.bridge.api, {
      readAgentChat: async () => notBegun(),
      sendAgentChat: async (_agentId: string, input: AgentChatSendInput): Promise<AgentChatSendResult> => {
        sent.push(input);
        const message: AgentChatOutboxMessage = { clientRequestId: input.clientRequestId, text: input.text, queuedAt: 1, status: "waiting", error: { code: "relay-unavailable", message: "The team is not known yet." } };
        outbox = [...outbox.filter((m) => m.clientRequestId !== input.clientRequestId), message];
        return { queued: true, planId: null, entry: null, created: true, message };
      },
    });
    app.services.ui.getState().openAgentChat(scout.id);
    await until(() => screen.queryByText("This is the start of your conversation with Scout.") !== null, "the first conversation");

    fireEvent.change(box(), { target: { value: "Written offline", selectionStart: 15 } });
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => waitingList() !== null, "the waiting send listed");
    expect(box().value).toBe("");
    const item = within(waitingList()!).getByText("Written offline").closest("li")!;
    expect(item.textContent).toContain("Waiting to send");
    expect(within(item).queryByRole("button", { name: "Retry" })).toBeNull();

    // The outbox refuses it for good (the agent was removed meanwhile, say): read again on the event, with a Retry.
    outbox = outbox.map((m) => ({ ...m, status: "failed" as const, error: { code: "agent-not-found", message: "There is no agent with that id." } }));
    app.bridge.emit("agent-chat-outbox-changed", { agentId: scout.id });
    await until(() => waitingList()?.textContent?.includes("Not sent: There is no agent with that id.") === true, "refused");
    fireEvent.click(within(waitingList()!).getByRole("button", { name: "Retry" }));
    await until(() => sent.length === 2, "sent again");
    expect(sent[1]).toEqual(sent[0]);

    // Delivered: nothing waits, and the list goes (another chat's event is not this one's).
    outbox = [];
    app.bridge.emit("agent-chat-outbox-changed", { agentId: "someone-else" });
    expect(waitingList()).not.toBeNull();
    app.bridge.emit("agent-chat-outbox-changed", { agentId: scout.id });
    await until(() => waitingList() === null, "the list gone once delivered");
  });
});
