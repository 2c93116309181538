// @vitest-environment jsdom
/**
 * Sends that wait in this device's outbox show in the chat (issue #27): a send the core queued (the relay's team not
 * known yet) leaves the composer and shows "Waiting to send"; one refused for good says why with a Retry that carries
 * its own clientRequestId and words; when the outbox moves ("agent-chat-outbox-changed") the chat is read again. Each
 * waiting or refused send has a Discard: with the composer empty its words go back into it and nothing is asked; with
 * other words there it asks first (Keep it / Discard for good); a refusal (delivered meanwhile) is said. The window's
 * double never queues, so the core's answers are played here by replacing its calls.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { ChopinError } from "../../../shared/errors.js";
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

  it("discards a waiting or refused send: its words back into an empty composer, a question first when other words are there, a refusal said", async () => {
    const app = renderApp();
    await app.bridge.api.updateExperimentalSettings({ enableAgentChat: true });
    const scout = await app.bridge.api.createAgent({ name: "Scout", color: "teal" });
    const message = (clientRequestId: string, text: string, status: "waiting" | "failed" = "waiting"): AgentChatOutboxMessage => ({ clientRequestId, text, queuedAt: 1, status, error: status === "failed" ? { code: "agent-not-found", message: "There is no agent with that id." } : null });
    let outbox: AgentChatOutboxMessage[] = [message("k-1", "First thought"), message("k-2", "Second thought", "failed"), message("k-3", "Third thought")];
    const discarded: string[] = [];
    let refuse: ChopinError | null = null;
    Object.assign(app.bridge.api, {
      readAgentChat: async (): Promise<AgentChatNotBegun | null> => (outbox.length === 0 ? null : { planId: null, page: null, planner: null, state: "active", outbox }),
      discardAgentChatSend: async (_agentId: string, clientRequestId: string) => {
        if (refuse) throw refuse;
        discarded.push(clientRequestId);
        const gone = outbox.find((m) => m.clientRequestId === clientRequestId)!;
        outbox = outbox.filter((m) => m !== gone);
        return gone;
      },
    });
    app.services.ui.getState().openAgentChat(scout.id);
    await until(() => waitingList() !== null, "the waiting sends listed");
    const item = (text: string) => within(waitingList()!).getByText(text).closest("li")!;
    // Each has a Discard, the refused one beside its Retry.
    expect(within(item("Second thought")).getAllByRole("button").map((b) => b.textContent)).toEqual(["Retry", "Discard"]);
    // Named "Discard", described by the words it discards.
    expect(screen.getByRole("button", { name: "Discard", description: "Third thought" })).toBe(within(item("Third thought")).getByRole("button", { name: "Discard" }));

    // The composer is empty: discarded at once, no question, and the words wait in the composer.
    fireEvent.click(within(item("First thought")).getByRole("button", { name: "Discard" }));
    await until(() => box().value === "First thought", "the words back in the composer");
    expect(discarded).toEqual(["k-1"]);
    expect(within(waitingList()!).queryByText("First thought")).toBeNull();
    expect(screen.queryByRole("group", { name: "Discard this message?" })).toBeNull();

    // Other words are there: asked first; kept, nothing is discarded.
    fireEvent.click(within(item("Second thought")).getByRole("button", { name: "Discard" }));
    const question = screen.getByRole("group", { name: "Discard this message?" });
    expect(question.textContent).toContain("cannot go back into it");
    fireEvent.click(within(question).getByRole("button", { name: "Keep it" }));
    expect(screen.queryByRole("group", { name: "Discard this message?" })).toBeNull();
    expect(discarded).toEqual(["k-1"]);
    // Discarded for good: gone, the composer's words untouched.
    fireEvent.click(within(item("Second thought")).getByRole("button", { name: "Discard" }));
    fireEvent.click(within(screen.getByRole("group", { name: "Discard this message?" })).getByRole("button", { name: "Discard for good" }));
    await until(() => within(waitingList()!).queryByText("Second thought") === null, "the refused send gone");
    expect(discarded).toEqual(["k-1", "k-2"]);
    expect(box().value).toBe("First thought");

    // Delivered meanwhile: the core refuses, the window says why and keeps the composer as it was.
    fireEvent.change(box(), { target: { value: "", selectionStart: 0 } });
    refuse = new ChopinError("revision-conflict", "This message was already delivered: it is in the conversation, so it was not discarded. Withdraw it there instead.");
    fireEvent.click(within(item("Third thought")).getByRole("button", { name: "Discard" }));
    await until(() => screen.queryByText(/Not discarded: This message was already delivered/) !== null, "the refusal said");
    expect(box().value).toBe("");
    expect(discarded).toEqual(["k-1", "k-2"]);
  });
});
