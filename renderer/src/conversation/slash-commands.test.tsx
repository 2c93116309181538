// @vitest-environment jsdom
/**
 * The composer's slash commands in a plan's conversation (issue #27), against the window's test double: `/` at the
 * start of an empty draft offers `/new` in a listbox the keyboard drives (aria-activedescendant), Enter or a click puts
 * it in the draft without sending it, Escape closes the list, a slash after words offers nothing, and sending it posts
 * "/new" to the Planner as an ordinary message; the processed command's answer shows as a divider, nothing before it
 * hidden.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderAppWithConversationOpen } from "../test/render-app.js";
import { isSlashCommand, newSessionCommand, slashCommandsFor } from "./slash-commands.js";

afterEach(cleanupApps);

const box = () => screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;
const type = (text: string) => fireEvent.change(box(), { target: { value: text, selectionStart: text.length } });
const commands = () => screen.queryByRole("listbox", { name: "Commands" });

describe("which drafts offer a command", () => {
  const all = [newSessionCommand("the agent")];
  it("offers a command for the start of one only, never once it is whole or has words after it", () => {
    expect(slashCommandsFor("/", all).map((c) => c.text)).toEqual(["/new"]);
    expect(slashCommandsFor("/ne", all).map((c) => c.text)).toEqual(["/new"]);
    expect(slashCommandsFor("/new", all)).toEqual([]);
    expect(slashCommandsFor("/x", all)).toEqual([]);
    expect(slashCommandsFor("see /", all)).toEqual([]);
    expect(slashCommandsFor("/new please", all)).toEqual([]);
    expect(slashCommandsFor("", all)).toEqual([]);
    expect(isSlashCommand(" /new ", all)).toBe(true);
    expect(isSlashCommand("/new please", all)).toBe(false);
  });
});

describe("the composer's /new", () => {
  it("is offered for a / at the start, picked with the keyboard, and sent to the Planner as an ordinary message", async () => {
    const { app, plan } = await renderAppWithConversationOpen("Launch");
    type("see /");
    expect(commands()).toBeNull();
    type("/");
    await until(() => commands() !== null, "the commands offered");
    const option = within(commands()!).getByRole("option");
    expect(option.textContent).toBe("/new Start a new session: the Planner forgets what was said before");
    expect(option.getAttribute("aria-selected")).toBe("true");
    expect(box().getAttribute("aria-activedescendant")).toBe(option.id);
    fireEvent.keyDown(box(), { key: "Escape" });
    await until(() => commands() === null, "closed on Escape");
    type("/n");
    await until(() => commands() !== null, "offered again once the draft changed");
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => box().value === "/new", "the command in the draft");
    expect(commands()).toBeNull();
    expect(app.bridge.conversations(plan.id)).toHaveLength(0);
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => app.bridge.conversations(plan.id).length === 1, "sent");
    expect(app.bridge.conversations(plan.id)[0]).toMatchObject({ text: "/new", to: "planner" });
  });

  it("is picked with the mouse too, and the processed command's answer shows as a divider after what came before", async () => {
    const { app, plan } = await renderAppWithConversationOpen("Launch");
    app.bridge.receiveMessage(plan.id, { author: { kind: "person", name: "Bob", device: "b" }, text: "Before the line" });
    type("/");
    await until(() => commands() !== null, "the commands offered");
    fireEvent.mouseDown(within(commands()!).getByRole("option"));
    await until(() => box().value === "/new", "the command in the draft");
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => app.bridge.conversations(plan.id).length === 2, "sent");
    const command = app.bridge.conversations(plan.id)[1]!;
    app.bridge.receiveMessage(plan.id, { author: { kind: "planner" }, text: "New Planner session: the Planner starts afresh from here.", boundary: true, turn: { id: command.id, state: "answered", ownershipGeneration: 1 } });
    const log = screen.getByRole("log", { name: "Messages" });
    await until(() => within(log).queryByRole("separator", { name: "New Planner session" }) !== null, "the divider");
    const items = [...log.querySelectorAll(":scope > li")].map((li) => li.textContent ?? "");
    expect(items.findIndex((t) => t.includes("Before the line"))).toBeLessThan(items.findIndex((t) => t === "New Planner session"));
    expect(within(log).getByText("/new")).toBeTruthy();
  });
});
