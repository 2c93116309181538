// @vitest-environment jsdom
/**
 * The Planner's state in the conversation panel against the window's test double (issue #25): nobody at first, the
 * refusal in words when this app may not run it, "Planner runs on alice's app" as soon as the keeper says so, the
 * generations in the details, and a reset that asks first and is recorded in the conversation naming who reset it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderAppWithConversationOpen } from "../test/render-app.js";

afterEach(cleanupApps);

async function openConversation() {
  const opened = await renderAppWithConversationOpen("Launch", async (bridge) => {
    bridge.settings.displayName = "Bob";
  });
  await until(() => screen.queryByRole("status", { name: "Planner" }) !== null, "the Planner's state");
  return opened;
}

const planner = () => screen.getByRole("status", { name: "Planner" });
const box = () => screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;

describe("the Planner's state in the conversation panel", () => {
  it("says nobody runs it, then why this signed-out app could not take it", async () => {
    await openConversation();
    expect(within(planner()).getByText(/Nobody runs the Planner here yet/)).toBeTruthy();
    fireEvent.change(box(), { target: { value: "@Planner outline it" } });
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => within(planner()).queryByText(/Not on this app: Sign in to GitHub/) !== null, "the refusal");
  });

  it("names the app that runs it, shows the generation, and resets it after asking, recorded in the conversation", async () => {
    const { app, plan } = await openConversation();
    app.bridge.setPlannerOwner(plan.id, { user: "alice", device: "device-alice" });
    await until(() => within(planner()).queryByText("Planner runs on alice's app") !== null, "alice's app");
    fireEvent.click(within(planner()).getByText("Details"));
    expect(within(planner()).getByText("Ownership generation").nextElementSibling?.textContent).toBe("1");

    fireEvent.click(within(planner()).getByRole("button", { name: "Reset Planner ownership" }));
    await until(() => screen.queryByRole("dialog", { name: "Reset Planner ownership?" }) !== null, "asked first");
    const dialog = screen.getByRole("dialog", { name: "Reset Planner ownership?" });
    expect(within(dialog).getByText(/alice's app stops running the Planner/)).toBeTruthy();
    expect(app.bridge.conversations(plan.id)).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole("button", { name: "Reset" }));
    await until(() => within(planner()).queryByText(/Nobody runs the Planner here yet/) !== null, "reset");
    const log = screen.getByRole("log", { name: "Messages" });
    await until(() => within(log).queryByText(/Bob reset Planner ownership: alice's app \(ownership generation 1\)/) !== null, "recorded");
    expect(within(log).getByText("Chopin")).toBeTruthy();
  });

  it("says when this app runs it", async () => {
    const { app, plan } = await openConversation();
    app.bridge.completeSignIn("bob");
    fireEvent.change(box(), { target: { value: "@Planner begin" } });
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => within(planner()).queryByText("Planner runs on this app") !== null, "running here");
    expect((await app.bridge.api.getPlannerState(plan.id)).ownershipGeneration).toBe(1);
  });

  it("shows a turn begun as running while its owner runs it, as interrupted once not, and hides it once answered", async () => {
    const { app, plan } = await openConversation();
    app.bridge.setPlannerOwner(plan.id, { user: "alice", device: "device-alice" });
    const log = screen.getByRole("log", { name: "Messages" });
    app.bridge.receiveMessage(plan.id, { author: { kind: "planner" }, text: "The Planner is working on this.", turn: { id: "m1", state: "started", ownershipGeneration: 1 } });
    await until(() => within(log).queryByText("Working on it…") !== null, "running");
    app.bridge.setPlannerOwner(plan.id, null);
    await until(() => within(log).queryByText(/^Interrupted: this turn ended before the Planner answered/) !== null, "interrupted");
    app.bridge.receiveMessage(plan.id, { author: { kind: "planner" }, text: "Here it is.", turn: { id: "m1", state: "answered", ownershipGeneration: 1 } });
    await until(() => within(log).queryByText("Here it is.") !== null, "answered");
    expect(within(log).queryByText(/Interrupted/)).toBeNull();
  });

  it("shows what a finished turn used, and a refused tool call as a refusal", async () => {
    const { app, plan } = await openConversation();
    const log = screen.getByRole("log", { name: "Messages" });
    app.bridge.receiveMessage(plan.id, {
      author: { kind: "planner" },
      text: "The Planner's edit_plan was refused by the credential check: The GitHub sign-in has expired.",
      denial: { tool: "edit_plan", check: "credential", reason: "The GitHub sign-in has expired.", turnId: "m2" },
    });
    app.bridge.receiveMessage(plan.id, {
      author: { kind: "planner" },
      text: "I read the plan.",
      turn: { id: "m2", state: "answered", ownershipGeneration: 1 },
      tools: [{ name: "read_plan", status: "done" }, { name: "read_repository_file", status: "failed", note: "Not found." }],
    });
    await until(() => within(log).queryByRole("list", { name: "Tools the Planner used" }) !== null, "the tools");
    const used = within(log).getByRole("list", { name: "Tools the Planner used" });
    expect([...used.querySelectorAll("li")].map((li) => li.textContent)).toEqual(["read_plan", "read_repository_file: failed"]);
    expect(used.querySelectorAll("li")[1]!.getAttribute("title")).toBe("Not found.");
    const refusal = within(log).getByText(/was refused by the credential check/).closest("li")!;
    expect(refusal.className).toContain("is-denial");
  });

  it("streams the running turn of this app: its text so far and its tool calls, a refused one as refused", async () => {
    const { app, plan } = await openConversation();
    app.bridge.setPlannerOwner(plan.id, { user: "bob", device: "device-memory" });
    const log = screen.getByRole("log", { name: "Messages" });
    app.bridge.receiveMessage(plan.id, { author: { kind: "planner" }, text: "The Planner is working on this.", turn: { id: "m1", state: "started", ownershipGeneration: 1 } });
    await until(() => within(log).queryByText("Working on it…") !== null, "running");
    app.bridge.emit("planner-turn", {
      documentId: plan.id,
      turnId: "m1",
      text: "Reading **the plan**",
      tools: [
        { id: "c1", name: "read_plan", status: "done" },
        { id: "denied-1", name: "edit_plan", status: "refused", note: "ownership-generation: not the owner" },
      ],
      done: false,
    });
    await until(() => within(log).queryByText("the plan") !== null, "streamed text");
    expect(within(log).getByText("the plan").tagName).toBe("STRONG");
    const tools = within(log).getByRole("list", { name: "The Planner's tool calls" });
    expect(tools.textContent).toContain("read_plan: done");
    expect(tools.textContent).toContain("edit_plan: refused by the permission check (ownership-generation: not the owner)");
    app.bridge.emit("planner-turn", { documentId: plan.id, turnId: "m1", text: "Reading **the plan**", tools: [], done: true });
    await until(() => within(log).queryByText("the plan") === null, "cleared when done");
  });

  it("draws a processed /new as a divider between Planner sessions", async () => {
    const { app, plan } = await openConversation();
    const log = screen.getByRole("log", { name: "Messages" });
    app.bridge.receiveMessage(plan.id, { author: { kind: "planner" }, text: "New Planner session: the Planner starts afresh from here.", boundary: true, turn: { id: "n1", state: "answered", ownershipGeneration: 1 } });
    await until(() => within(log).queryByRole("separator", { name: "New Planner session" }) !== null, "the divider");
  });

  it("lets a person withdraw their waiting message to the Planner, and anyone stop a running turn", async () => {
    const { app, plan } = await openConversation();
    const log = screen.getByRole("log", { name: "Messages" });
    fireEvent.change(box(), { target: { value: "@Planner maybe later" } });
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => within(log).queryByRole("button", { name: "Withdraw" }) !== null, "withdrawable");
    fireEvent.click(within(log).getByRole("button", { name: "Withdraw" }));
    await until(() => within(log).queryByText("Withdrawn before the Planner took it up.") !== null, "withdrawn");
    expect(within(log).queryByRole("button", { name: "Withdraw" })).toBeNull();

    app.bridge.setPlannerOwner(plan.id, { user: "alice", device: "device-alice" });
    app.bridge.receiveMessage(plan.id, { author: { kind: "planner" }, text: "The Planner is working on this.", turn: { id: "m9", state: "started", ownershipGeneration: 1 } });
    await until(() => within(log).queryByRole("button", { name: "Stop" }) !== null, "stoppable");
    fireEvent.click(within(log).getByRole("button", { name: "Stop" }));
    await until(() => app.bridge.conversations(plan.id).some((e) => e.abortTurn === "m9"), "the stop asked for");
    await until(() => within(log).queryByText("Stopped the Planner's turn.") !== null, "shown");
  });

  it("says the Planner is off on this app instead of offering it, and offers it again once a teammate's app runs it", async () => {
    const { app, plan } = await openConversation();
    await app.bridge.api.updatePlannerSettings({ enabled: false });
    await until(() => within(planner()).queryByText(/The Planner is off on this app: turn it on in Settings/) !== null, "off here");
    const toPlanner = screen.getByRole("button", { name: "To Planner" }) as HTMLButtonElement;
    expect(toPlanner.disabled).toBe(true);
    expect(box().placeholder).toBe("Write to the room…");
    fireEvent.change(box(), { target: { value: "@Planner still?" } });
    expect(screen.getByText("The Planner is off on this app: this message waits until it is on.")).toBeTruthy();
    app.bridge.setPlannerOwner(plan.id, { user: "alice", device: "device-alice" });
    await until(() => within(planner()).queryByText("Planner runs on alice's app") !== null, "alice's app");
    expect((screen.getByRole("button", { name: "To Planner" }) as HTMLButtonElement).disabled).toBe(false);
  });
});
