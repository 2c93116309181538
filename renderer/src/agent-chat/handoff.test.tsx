// @vitest-environment jsdom
/**
 * Plan handoff in the window (issue #27), over the window's test double: the Hand off action opens a dialog with a
 * title and a brief, makes the plan and the chat's card, and says so; a refusal is said in a sentence in the dialog,
 * keeps what was typed and makes nothing, and sending the same words again is the same handoff (its clientRequestId)
 * while changed words are a new one; disabled, it opens nothing. The card in a conversation names the plan and its
 * link opens it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { ChopinError } from "../../../shared/errors.js";
import type { AgentChatHandoffInput } from "../../../shared/api.js";
import { AppServicesContext, createAppServices } from "../state/app-services.js";
import { startInProcessReplica } from "../replica-link/in-process-replica.js";
import { linkedRepos } from "../test/linked-repos.js";
import { createMemoryBridge } from "../test/memory-bridge.js";
import { cleanupApps, renderApp } from "../test/render-app.js";
import { until } from "../test/until.js";
import { HandoffAction } from "./HandoffAction.js";

const closers: (() => void)[] = [];
afterEach(() => {
  cleanup();
  while (closers.length) closers.pop()!();
  cleanupApps();
});

/** The action alone over the double, with agent chat on and the Planner's chat begun. */
async function renderAction(disabled = false) {
  const { core, replica, close } = linkedRepos();
  closers.push(close);
  const bridge = createMemoryBridge(core);
  const host = startInProcessReplica({ repo: replica, api: bridge.api, notify: () => undefined });
  closers.push(host.stop);
  const services = createAppServices(bridge, host.client);
  await bridge.api.updateExperimentalSettings({ enableAgentChat: true });
  const sent = await bridge.api.sendAgentChat("planner", { text: "Draft the launch", clientRequestId: "m1" });
  if (sent.queued) throw new Error("the window's double delivers every send at once");
  const { planId } = sent;
  render(
    <AppServicesContext.Provider value={services}>
      <HandoffAction agentId="planner" disabled={disabled} />
    </AppServicesContext.Provider>,
  );
  return { bridge, planId };
}

const openDialog = () => {
  fireEvent.click(screen.getByRole("button", { name: "Hand off plan" }));
  return screen.getByRole("dialog", { name: "Hand off the plan" });
};
const fill = (dialog: HTMLElement, title: string, brief: string) => {
  fireEvent.change(within(dialog).getByRole("textbox", { name: "Title" }), { target: { value: title } });
  fireEvent.change(within(dialog).getByRole("textbox", { name: "Brief" }), { target: { value: brief } });
};
const sent = (bridge: ReturnType<typeof createMemoryBridge>) => bridge.calls.filter((c) => c.method === "handOffAgentChatPlan").map((c) => c.args[1] as AgentChatHandoffInput);

describe("the Hand off action", () => {
  it("makes the plan and the chat's card from a title and a brief, and says so", async () => {
    const { bridge, planId } = await renderAction();
    const dialog = openDialog();
    fill(dialog, "Launch plan", "For the spring launch.");
    fireEvent.click(within(dialog).getByRole("button", { name: "Hand off" }));
    await until(() => screen.queryByRole("status") !== null, "said");
    expect(screen.getByRole("status").textContent).toBe("Handed off as “Launch plan”.");
    expect(screen.queryByRole("dialog")).toBeNull();
    const listed = await bridge.api.listDocuments();
    expect(listed.map((d) => d.title)).toEqual(["Launch plan"]);
    expect(bridge.conversations(planId).filter((e) => e.handoff)).toEqual([expect.objectContaining({ handoff: { documentId: listed[0]!.id, title: "Launch plan" } })]);
  });

  it("says a refusal in the dialog, keeps the words, and sends the same handoff again until they change", async () => {
    const { bridge } = await renderAction();
    bridge.failNext("handOffAgentChatPlan", new ChopinError("storage-failure", "This device's database could not record the handoff (disk full), so no card was written; try again once it takes writes."));
    const dialog = openDialog();
    fill(dialog, "Launch plan", "Brief.");
    fireEvent.click(within(dialog).getByRole("button", { name: "Hand off" }));
    await until(() => within(dialog).queryByRole("alert") !== null, "the refusal");
    expect(within(dialog).getByRole("alert").textContent).toMatch(/could not record the handoff/);
    expect((within(dialog).getByRole("textbox", { name: "Title" }) as HTMLInputElement).value).toBe("Launch plan");
    expect(await bridge.api.listDocuments()).toEqual([]);

    bridge.failNext("handOffAgentChatPlan", new ChopinError("core-unreachable", "The app's core cannot be reached."));
    fireEvent.click(within(dialog).getByRole("button", { name: "Hand off" }));
    await until(() => sent(bridge).length === 2 && within(dialog).queryByRole("alert")?.textContent === "The app's core cannot be reached.", "the second refusal");
    expect(sent(bridge)[1]!.clientRequestId).toBe(sent(bridge)[0]!.clientRequestId);

    fill(dialog, "Launch plan v2", "Brief.");
    fireEvent.click(within(dialog).getByRole("button", { name: "Hand off" }));
    await until(() => screen.queryByRole("status") !== null, "handed off");
    expect(sent(bridge)[2]!.clientRequestId).not.toBe(sent(bridge)[1]!.clientRequestId);
    expect((await bridge.api.listDocuments()).map((d) => d.title)).toEqual(["Launch plan v2"]);
  });

  it("opens nothing while disabled", async () => {
    await renderAction(true);
    const button = screen.getByRole("button", { name: "Hand off plan" }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.click(button);
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});

describe("a handoff card in a conversation", () => {
  it("names the plan and opens it from its link", async () => {
    const app = renderApp();
    const handedOff = await app.bridge.api.createDocument({ title: "Launch plan" });
    const plan = await app.bridge.api.createDocument({ title: "Chat plan" });
    const nav = screen.getByRole("navigation", { name: "Documents" });
    await until(() => within(nav).queryByText("Chat plan") !== null, "listed");
    fireEvent.click(within(nav).getByText("Chat plan"));
    await until(() => screen.queryByRole("button", { name: "Conversation" }) !== null, "open");
    fireEvent.click(screen.getByRole("button", { name: "Conversation" }));
    await until(() => screen.queryByRole("log", { name: "Messages" }) !== null, "the panel");
    app.bridge.receiveMessage(plan.id, { text: "Handed off the plan as a new plan: Launch plan", author: { kind: "planner" }, handoff: { documentId: handedOff.id, title: "Launch plan" } });
    await until(() => screen.queryByRole("region", { name: "Handed-off plan: Launch plan" }) !== null, "the card");
    fireEvent.click(within(screen.getByRole("region", { name: "Handed-off plan: Launch plan" })).getByRole("button", { name: "Open Launch plan" }));
    await until(() => (screen.queryByRole("textbox", { name: "Document title" }) as HTMLInputElement | null)?.value === "Launch plan", "the handed-off plan open");
  });
});
