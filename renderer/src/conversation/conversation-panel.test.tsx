// @vitest-environment jsdom
/**
 * The conversation panel against the window's test double: Enter sends and Shift+Enter does not, @Planner addresses
 * the Planner, the draft follows the plan, a send the link lost waits as "not sent" and its retry makes one entry,
 * a refused send gives its words back, earlier messages come a page at a time, and a "New" line marks what others
 * wrote since the plan was last read.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { ChopinError } from "../../../shared/errors.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";
import { CONVERSATION_PANEL_PAGE_ENTRIES } from "../limits.js";

afterEach(cleanupApps);

async function openConversation(titles: string[] = ["Launch"]) {
  const app = renderApp();
  const plans = [];
  for (const title of titles) plans.push(await app.bridge.api.createDocument({ title }));
  const nav = screen.getByRole("navigation", { name: "Documents" });
  await until(() => within(nav).queryByText(titles[0]!) !== null, "listed");
  fireEvent.click(within(nav).getByText(titles[0]!));
  await until(() => screen.queryByRole("button", { name: "Conversation" }) !== null, "open");
  fireEvent.click(screen.getByRole("button", { name: "Conversation" }));
  await until(() => screen.queryByRole("log", { name: "Messages" }) !== null, "the panel");
  return { app, nav, plans };
}

const box = () => screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;
const log = () => screen.getByRole("log", { name: "Messages" });
const type = (text: string) => fireEvent.change(box(), { target: { value: text } });

describe("the conversation panel", () => {
  it("sends on Enter, not on Shift+Enter, under the person's name, and @Planner addresses the Planner", async () => {
    const { app, plans } = await openConversation();
    await until(() => within(log()).queryByText(/No messages yet/) !== null, "empty");
    type("first line");
    fireEvent.keyDown(box(), { key: "Enter", shiftKey: true });
    expect(app.bridge.conversations(plans[0]!.id)).toHaveLength(0);
    type("Hello **team**");
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => within(log()).queryByText("team") !== null, "sent and shown");
    expect(within(log()).getByText("team").tagName).toBe("STRONG");
    expect(box().value).toBe("");
    type("@Planner what is left?");
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => app.bridge.conversations(plans[0]!.id).length === 2, "second sent");
    expect(app.bridge.conversations(plans[0]!.id).map((e) => e.to)).toEqual(["room", "planner"]);
    await until(() => within(log()).queryByText("to Planner") !== null, "shown as to the Planner");
  });

  it("keeps the draft per plan across switching", async () => {
    const { nav } = await openConversation(["One", "Two"]);
    type("unsent thought");
    fireEvent.click(within(nav).getByText("Two"));
    await until(() => (screen.getByRole("textbox", { name: "Document title" }) as HTMLInputElement).value === "Two", "Two open");
    await until(() => box().value === "", "Two's empty draft");
    fireEvent.click(within(nav).getByText("One"));
    await until(() => box().value === "unsent thought", "One's draft back");
  });

  it("keeps a send the link lost as not sent, and its retry makes one entry", async () => {
    const { app, plans } = await openConversation();
    app.bridge.failNext("postMessage", new ChopinError("core-unreachable", "The app's core did not answer."));
    type("through a bad link");
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => screen.queryByRole("alert") !== null && /Not sent/.test(screen.getByRole("alert").textContent ?? ""), "not sent");
    expect(box().value).toBe("");
    const firstTry = app.bridge.calls.filter((c) => c.method === "postMessage").at(-1)!.args[1] as { clientRequestId: string };
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    await until(() => app.bridge.conversations(plans[0]!.id).length === 1, "sent on retry");
    const retried = app.bridge.calls.filter((c) => c.method === "postMessage").at(-1)!.args[1] as { clientRequestId: string };
    expect(retried.clientRequestId).toBe(firstTry.clientRequestId);
    await until(() => within(log()).queryByText("through a bad link") !== null && screen.queryByText(/Not sent/) === null, "shown once, sent");
  });

  it("gives the words back when the core refuses the message for what it is", async () => {
    const { app } = await openConversation();
    app.bridge.failNext("postMessage", new ChopinError("invalid-input", "That message cannot be sent."));
    type("refused words");
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => screen.queryByText("That message cannot be sent.") !== null, "the reason");
    await until(() => box().value === "refused words", "the words back");
  });

  it("shows a page at a time, earlier messages on request, and a New line before what others wrote", async () => {
    const app = renderApp();
    const plan = await app.bridge.api.createDocument({ title: "Busy" });
    const total = CONVERSATION_PANEL_PAGE_ENTRIES + 5;
    for (let i = 0; i < total - 2; i++) await app.bridge.api.postMessage(plan.id, { text: `message ${i}`, to: "room", clientRequestId: `m${i}` });
    const grace = { kind: "person", name: "Grace", device: "device-grace" } as const;
    app.bridge.receiveMessage(plan.id, { text: `message ${total - 2}`, author: grace });
    app.bridge.receiveMessage(plan.id, { text: `message ${total - 1}`, author: grace });
    const nav = screen.getByRole("navigation", { name: "Documents" });
    await until(() => within(nav).queryByText("Busy") !== null, "listed");
    fireEvent.click(within(nav).getByText("Busy"));
    await until(() => screen.queryByRole("button", { name: "Conversation" }) !== null, "open");
    fireEvent.click(screen.getByRole("button", { name: "Conversation" }));
    await until(() => within(log()).queryByText(`message ${total - 1}`) !== null, "newest shown");
    expect(within(log()).queryByText("message 0")).toBeNull();
    expect(within(log()).getAllByText("Grace")).toHaveLength(2);
    const newLine = within(log()).getByLabelText("New messages");
    expect(newLine.nextElementSibling?.textContent).toContain(`message ${total - 2}`);
    fireEvent.click(within(log()).getByRole("button", { name: "Show earlier messages" }));
    await until(() => within(log()).queryByText("message 0") !== null, "earlier shown");
    expect(within(log()).queryByRole("button", { name: "Show earlier messages" })).toBeNull();
  });

  it("shows a teammate's message as it arrives, under their name", async () => {
    const { app, plans } = await openConversation();
    app.bridge.receiveMessage(plans[0]!.id, { text: "Arrived from *Grace*", author: { kind: "person", name: "Grace", login: "grace", device: "device-grace" } });
    await until(() => within(log()).queryByText("Grace", { selector: ".message-author" }) !== null, "arrived");
    expect(within(log()).getByText("@grace")).toBeTruthy();
    expect(within(log()).getByText("Grace", { selector: "em" })).toBeTruthy();
  });

  it("takes no message in an archived plan", async () => {
    const { app, plans } = await openConversation();
    await app.services.documents.getState().archive(plans[0]!.id);
    await until(() => box().disabled, "the composer is off");
    expect(box().placeholder).toMatch(/archived/);
  });
});
