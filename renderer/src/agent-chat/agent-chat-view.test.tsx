// @vitest-environment jsdom
/**
 * The chat with an agent in the whole window, over the window's test double (issue #27): the Agents page's Chat action
 * opens it titled "Chat with <name>"; a chat never used shows the first conversation and makes nothing (only
 * readAgentChat); sending begins it, the agent's turn streams with Stop (stopAgentChat), the state follows (active,
 * then waiting); a failed send keeps the words, says why and its Retry carries the same clientRequestId; earlier
 * messages come on request; `/new` is offered, sent as an ordinary message and its answer shows as a divider; the gear
 * opens the agent's configuration; agent chat turned off says so and keeps the draft.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { ChopinError } from "../../../shared/errors.js";
import { until } from "../test/until.js";
import { cleanupApps, renderAppWithScoutChatOpen } from "../test/render-app.js";
import { answerNewSession, beginAgentTurn, chatPlanIdOf } from "../test/agent-chat-turns.js";
import { CONVERSATION_PANEL_PAGE_ENTRIES } from "../limits.js";
import { AGENT_CHAT_OFF } from "./AgentChatView.js";

afterEach(cleanupApps);

const box = () => screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;
const type = (text: string) => fireEvent.change(box(), { target: { value: text, selectionStart: text.length } });
const log = () => screen.getByRole("log", { name: "Messages" });
const chatState = () => screen.getByRole("region", { name: /^Chat with/ }).querySelector(".agent-chat-state")?.textContent;

/** The window with agent chat on and Scout added, its chat opened from the Agents page's Chat action. */
async function openChat() {
  const { app, scout } = await renderAppWithScoutChatOpen();
  return { app, scout, planId: chatPlanIdOf(scout.id) };
}

async function sendMessage(text: string) {
  type(text);
  fireEvent.keyDown(box(), { key: "Enter" });
  await until(() => within(log()).queryByText(text) !== null, `${text} shown`);
}

describe("the chat with an agent", () => {
  it("opens from the Chat action as the first conversation, making nothing until the first send", async () => {
    const { app, planId } = await openChat();
    await until(() => screen.queryByText("This is the start of your conversation with Scout.") !== null, "the first conversation");
    expect(document.title).toBe("Chat with Scout — Chopin");
    expect(screen.getByRole("main", { name: "Agent chat" })).toBeTruthy();
    expect(chatState()).toBe("No messages yet");
    // Reads only (the chat's, and the Agents page's table of chats for teammates' links); showing the chat records a
    // visit, which the sidebar's recents list.
    expect(app.bridge.calls.filter((c) => c.method.includes("AgentChat") && c.method !== "listAgentChats" && c.method !== "recordAgentChatVisit").map((c) => c.method)).toEqual(["readAgentChat"]);
    await until(() => app.bridge.calls.some((c) => c.method === "recordAgentChatVisit"), "the visit recorded");
    const sidebar = screen.getByRole("navigation", { name: "Documents" });
    await until(() => within(sidebar).queryByRole("button", { name: "Scout" }) !== null, "Scout among the recents");
    expect(app.bridge.docs.has(planId)).toBe(false);
    expect(screen.queryByRole("log", { name: "Messages" })).toBeNull();
    expect(app.bridge.calls.some((c) => c.method === "postMessage" || c.method === "readConversation")).toBe(false);
  });

  it("shows a chat the person's other device began while this view showed the first conversation", async () => {
    const { app, scout, planId } = await openChat();
    await until(() => chatState() === "No messages yet", "the first read");
    // The other device's first send: here it arrives as the chat plan's document (the sync says documents-changed).
    await app.bridge.api.sendAgentChat(scout.id, { text: "Sent from my laptop", clientRequestId: "laptop-1" });
    app.bridge.emit("documents-changed", { ids: [planId] });
    await until(() => screen.queryByRole("log", { name: "Messages" }) !== null && within(log()).queryByText("Sent from my laptop") !== null, "the chat begun elsewhere");
  });

  it("keeps a draft written before the first send across leaving the chat and coming back, and forgets it once sent", async () => {
    const { app } = await openChat();
    await until(() => chatState() === "No messages yet", "the first read");
    type("Half a thought");
    const sidebar = screen.getByRole("navigation", { name: "Documents" });
    fireEvent.click(within(sidebar).getByRole("button", { name: "Agents" }));
    await until(() => screen.queryByRole("heading", { name: "Chat with Scout" }) === null, "left the chat");
    fireEvent.click(screen.getByRole("button", { name: "Chat with Scout" }));
    await until(() => screen.queryByRole("heading", { name: "Chat with Scout" }) !== null, "back in the chat");
    await until(() => box().value === "Half a thought", "the draft kept");
    // Nothing was made for it: the chat still begins only with the first send.
    expect(app.bridge.calls.some((c) => c.method === "sendAgentChat")).toBe(false);
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => screen.queryByRole("log", { name: "Messages" }) !== null && within(log()).queryByText("Half a thought") !== null, "sent");
    await until(() => box().value === "", "the box emptied");
    fireEvent.click(within(sidebar).getByRole("button", { name: "Agents" }));
    await until(() => screen.queryByRole("heading", { name: "Chat with Scout" }) === null, "left again");
    fireEvent.click(screen.getByRole("button", { name: "Chat with Scout" }));
    await until(() => screen.queryByRole("log", { name: "Messages" }) !== null, "the chat again");
    expect(box().value).toBe("");
  });

  it("sends, streams the agent's turn with Stop, and follows the chat's state", async () => {
    const { app, scout, planId } = await openChat();
    await until(() => chatState() === "No messages yet", "the first read");
    await sendMessage("Plan the launch");
    expect(app.bridge.calls.find((c) => c.method === "sendAgentChat")!.args[0]).toBe(scout.id);
    expect(box().value).toBe("");
    await until(() => chatState() === "Active: Scout is answering", "active");
    const message = app.bridge.conversations(planId)[0]!;
    const turn = beginAgentTurn(app.bridge, planId, message.id);
    turn.stream("Which **date**");
    await until(() => within(log()).queryByText("Working on it…", { exact: false }) !== null && within(log()).queryByText("date") !== null, "the turn streaming");
    fireEvent.click(within(log()).getByRole("button", { name: "Stop" }));
    await until(() => app.bridge.calls.some((c) => c.method === "stopAgentChat"), "stopped through the chat");
    await until(() => app.bridge.conversations(planId).some((e) => e.abortTurn === message.id), "the stop recorded in the chat");
    turn.answer("Which date do you aim for?");
    await until(() => within(log()).queryByText("Which date do you aim for?") !== null, "the answer");
    await until(() => chatState() === "Waiting for you", "waiting");
    // The agent's entries carry its name; messages are not labelled "to Planner" in a chat.
    expect(within(log()).getAllByText("Scout").length).toBeGreaterThan(0);
    expect(within(log()).queryByText("to Planner")).toBeNull();
  });

  it("keeps the words of a failed send, says why, and retries it with the same clientRequestId", async () => {
    const { app, planId } = await openChat();
    await until(() => chatState() === "No messages yet", "the first read");
    app.bridge.failNext("sendAgentChat", new ChopinError("core-unreachable", "The app's core did not answer."));
    type("Through a bad link");
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => screen.queryByText(/Not sent:/) !== null, "not sent");
    expect(screen.getByText(/Not sent:/).getAttribute("role")).toBe("alert");
    expect(box().value).toBe("Through a bad link");
    const first = app.bridge.calls.filter((c) => c.method === "sendAgentChat").at(-1)!.args[1] as { clientRequestId: string };
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    await until(() => app.bridge.conversations(planId).length === 1, "sent on retry");
    const retried = app.bridge.calls.filter((c) => c.method === "sendAgentChat").at(-1)!.args[1] as { clientRequestId: string };
    expect(retried.clientRequestId).toBe(first.clientRequestId);
    await until(() => box().value === "" && screen.queryByText(/Not sent:/) === null, "cleared once sent");
    await until(() => within(log()).queryByText("Through a bad link") !== null, "shown");
    // A new draft is a new message: a new id.
    await sendMessage("Second");
    const second = app.bridge.calls.filter((c) => c.method === "sendAgentChat").at(-1)!.args[1] as { clientRequestId: string };
    expect(second.clientRequestId).not.toBe(first.clientRequestId);
  });

  it("shows a long history a page at a time when returning to it, earlier messages on request", async () => {
    const { app, planId } = await openChat();
    await until(() => chatState() === "No messages yet", "the first read");
    await sendMessage("Message 0");
    for (let n = 1; n <= CONVERSATION_PANEL_PAGE_ENTRIES + 4; n++) app.bridge.receiveMessage(planId, { author: { kind: "planner" }, text: `Answer ${n}` });
    // Back to the Agents page and into the chat again: it reads the chat afresh, the newest page only.
    fireEvent.click(within(screen.getByRole("navigation", { name: "Documents" })).getByRole("button", { name: "Agents" }));
    await until(() => screen.queryByRole("button", { name: "Chat with Scout" }) !== null, "the Agents page");
    fireEvent.click(screen.getByRole("button", { name: "Chat with Scout" }));
    await until(() => screen.queryByRole("log", { name: "Messages" }) !== null && within(log()).queryByText(`Answer ${CONVERSATION_PANEL_PAGE_ENTRIES + 4}`) !== null, "the newest");
    expect(within(log()).queryByText("Message 0")).toBeNull();
    fireEvent.click(within(log()).getByRole("button", { name: "Show earlier messages" }));
    await until(() => within(log()).queryByText("Message 0") !== null, "the earliest");
    expect(within(log()).queryByRole("button", { name: "Show earlier messages" })).toBeNull();
  });

  it("offers /new, sends it as an ordinary message, and shows its answer as a divider after what came before", async () => {
    const { app, planId } = await openChat();
    await until(() => chatState() === "No messages yet", "the first read");
    await sendMessage("Remember BLUE-HERON");
    type("/");
    await until(() => screen.queryByRole("listbox", { name: "Commands" }) !== null, "the commands");
    expect(within(screen.getByRole("listbox", { name: "Commands" })).getByRole("option").textContent).toBe("/new Start a new session: the agent forgets what was said before");
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => box().value === "/new", "picked");
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => app.bridge.conversations(planId).length === 2, "sent");
    expect(app.bridge.calls.filter((c) => c.method === "sendAgentChat").at(-1)!.args[1]).toMatchObject({ text: "/new" });
    answerNewSession(app.bridge, planId, app.bridge.conversations(planId)[1]!.id);
    await until(() => within(log()).queryByRole("separator", { name: "New session: Scout starts afresh from here" }) !== null, "the divider");
    expect(within(log()).getByText("Remember BLUE-HERON")).toBeTruthy();
  });

  it("opens the agent's configuration from its gear", async () => {
    await openChat();
    fireEvent.click(screen.getByRole("button", { name: "Configure Scout" }));
    await until(() => screen.queryByRole("form", { name: "Configure Scout" }) !== null, "the configuration");
    expect(screen.getByRole("main", { name: "Agents" })).toBeTruthy();
  });

  it("says agent chat is off without losing the draft, and goes on once it is on again", async () => {
    const { app, planId } = await openChat();
    await until(() => chatState() === "No messages yet", "the first read");
    type("Half a thought");
    await app.bridge.api.updateExperimentalSettings({ enableAgentChat: false });
    await until(() => screen.queryByText(AGENT_CHAT_OFF) !== null, "said off");
    expect(box().disabled).toBe(true);
    expect(box().value).toBe("Half a thought");
    expect(screen.queryByRole("button", { name: "Agents" })).toBeNull();
    await app.bridge.api.updateExperimentalSettings({ enableAgentChat: true });
    await until(() => !box().disabled, "on again");
    expect(box().value).toBe("Half a thought");
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => app.bridge.conversations(planId).length === 1, "sent");
  });
});
