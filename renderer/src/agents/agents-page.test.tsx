// @vitest-environment jsdom
/**
 * The Agents page in the whole window, over the window's test double (issue #27): the sidebar entry only while agent
 * chat is on; the Planner first, built in, with a gear and no Remove; adding an agent with every field; a configuration
 * that sends only what it changed; a refusal that names the field and keeps what was typed; removal after a
 * confirmation; a teammate's change arriving while the list is shown; a configuration whose agent was removed meanwhile;
 * the team not learnt yet; unreadable profiles said; opening a document or turning agent chat off leaving the page.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { AGENT_TOOL_NAMES, PLANNER_AGENT_ID } from "../../../shared/schema/agent-profiles.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";
import type { MemoryBridge } from "../test/memory-bridge.js";

afterEach(cleanupApps);

const sidebar = () => screen.getByRole("navigation", { name: "Documents" });
const agentsEntry = () => within(sidebar()).queryByRole("button", { name: "Agents" });
const page = () => screen.getByRole("region", { name: "Agents" });
const rows = () => within(screen.getByRole("list", { name: "Agent profiles" })).getAllByRole("listitem");
const rowNames = () => rows().map((row) => row.querySelector(".agent-name")?.firstChild?.textContent);

async function openAgentsPage(prepare?: (bridge: MemoryBridge) => void) {
  const app = renderApp(prepare);
  await app.bridge.api.updateExperimentalSettings({ enableAgentChat: true });
  await until(() => agentsEntry() !== null, "the Agents entry");
  fireEvent.click(agentsEntry()!);
  await until(() => screen.queryByRole("list", { name: "Agent profiles" }) !== null, "the list");
  return app;
}

describe("the Agents page", () => {
  it("is in the sidebar only while agent chat is on, and lists the Planner first, built in, with a gear and no Remove", async () => {
    const app = renderApp();
    await until(() => screen.queryByRole("button", { name: "New document" }) !== null, "the sidebar");
    expect(agentsEntry()).toBeNull();
    await app.bridge.api.updateExperimentalSettings({ enableAgentChat: true });
    await until(() => agentsEntry() !== null, "the Agents entry");
    fireEvent.click(agentsEntry()!);
    await until(() => screen.queryByRole("list", { name: "Agent profiles" }) !== null, "the list");
    expect(agentsEntry()!.getAttribute("aria-current")).toBe("page");
    expect(screen.getByRole("main", { name: "Agents" })).toBeTruthy();
    expect(document.title).toBe("Agents — Chopin");
    expect(within(page()).getByText(/Kept on this device: there is no team relay/)).toBeTruthy();
    expect(rowNames()).toEqual(["Planner"]);
    expect(within(rows()[0]!).getByText("Built in")).toBeTruthy();
    expect(within(rows()[0]!).getByRole("button", { name: "Configure Planner" })).toBeTruthy();
    expect(within(rows()[0]!).queryByRole("button", { name: /Remove/ })).toBeNull();
    // Every agent, the Planner included, has a Chat action (renderer/src/agent-chat/ tests the chat it opens).
    expect(within(rows()[0]!).getByRole("button", { name: "Chat with Planner" })).toBeTruthy();

    await app.bridge.api.updateExperimentalSettings({ enableAgentChat: false });
    await until(() => screen.queryByRole("region", { name: "Agents" }) === null, "the page gone");
    expect(agentsEntry()).toBeNull();
    expect(screen.getByRole("main", { name: "No document open" })).toBeTruthy();
  });

  it("adds an agent with every field, and lists it by name", async () => {
    const { bridge } = await openAgentsPage();
    fireEvent.click(within(page()).getByRole("button", { name: "Add agent" }));
    const form = within(page()).getByRole("form", { name: "New agent" });
    fireEvent.change(within(form).getByLabelText("Name"), { target: { value: "  Scout " } });
    fireEvent.click(within(form).getByRole("radio", { name: "Teal" }));
    fireEvent.change(within(form).getByLabelText("Instructions"), { target: { value: "Find the **gaps**." } });
    fireEvent.change(within(form).getByLabelText("Model"), { target: { value: "anthropic" } });
    fireEvent.change(within(form).getByLabelText("Model name"), { target: { value: "claude-x" } });
    // Read-only tools are on for a new agent; editing the plan and handing it off are chosen.
    const edit = within(form).getByRole("checkbox", { name: /Edit the plan/ }) as HTMLInputElement;
    expect(edit.checked).toBe(false);
    expect((within(form).getByRole("checkbox", { name: /hand_off_plan/ }) as HTMLInputElement).checked).toBe(false);
    expect((within(form).getByRole("checkbox", { name: /Read the plan read_plan/ }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(edit);
    fireEvent.click(within(form).getByRole("checkbox", { name: /Search the repository/ }));
    fireEvent.click(within(form).getByRole("button", { name: "Add agent" }));
    await until(() => within(page()).queryByRole("status")?.textContent === "Added Scout.", "added");
    expect(rowNames()).toEqual(["Planner", "Scout"]);
    expect(within(rows()[1]!).getByText(/Anthropic, claude-x · 8 tools/)).toBeTruthy();
    expect(bridge.calls.filter((c) => c.method === "createAgent").at(-1)?.args).toEqual([
      { name: "Scout", color: "teal", instructions: "Find the **gaps**.", model: { kind: "provider", provider: "anthropic", model: "claude-x" }, tools: AGENT_TOOL_NAMES.filter((t) => t !== "search_repository" && t !== "hand_off_plan") },
    ]);
  });

  it("sends only what the configuration changed, so a teammate's change to another field stays", async () => {
    const { bridge } = await openAgentsPage();
    const scout = await bridge.api.createAgent({ name: "Scout", instructions: "Old words." });
    await until(() => rowNames().includes("Scout"), "listed");
    fireEvent.click(within(rows()[1]!).getByRole("button", { name: "Configure Scout" }));
    const form = within(page()).getByRole("form", { name: "Configure Scout" });
    expect((within(form).getByLabelText("Instructions") as HTMLTextAreaElement).value).toBe("Old words.");
    // A teammate recolours Scout while the form is open.
    bridge.agents.receive({ ...scout, color: "orange" });
    fireEvent.change(within(form).getByLabelText("Instructions"), { target: { value: "New words." } });
    fireEvent.click(within(form).getByRole("button", { name: "Save agent" }));
    await until(() => within(page()).queryByRole("status")?.textContent === "Saved Scout.", "saved");
    expect(bridge.calls.filter((c) => c.method === "updateAgent").at(-1)?.args).toEqual([scout.id, { instructions: "New words." }]);
    expect((await bridge.api.listAgents()).agents[1]).toMatchObject({ color: "orange", instructions: "New words." });
  });

  it("says a refusal that names the field, keeping what was typed", async () => {
    const { bridge } = await openAgentsPage();
    await bridge.api.createAgent({ name: "Scout" });
    fireEvent.click(within(page()).getByRole("button", { name: "Add agent" }));
    const form = within(page()).getByRole("form", { name: "New agent" });
    fireEvent.change(within(form).getByLabelText("Name"), { target: { value: "scout" } });
    fireEvent.change(within(form).getByLabelText("Instructions"), { target: { value: "Keep me." } });
    fireEvent.click(within(form).getByRole("button", { name: "Add agent" }));
    await until(() => within(form).queryByRole("alert") !== null, "the refusal");
    expect(within(form).getByRole("alert").textContent).toMatch(/^Name: another agent is called “Scout”/);
    expect((within(form).getByLabelText("Instructions") as HTMLTextAreaElement).value).toBe("Keep me.");
  });

  it("configures the Planner but keeps its name", async () => {
    const { bridge } = await openAgentsPage();
    fireEvent.click(within(rows()[0]!).getByRole("button", { name: "Configure Planner" }));
    const form = within(page()).getByRole("form", { name: "Configure Planner" });
    const name = within(form).getByLabelText("Name") as HTMLInputElement;
    expect(name.readOnly).toBe(true);
    expect(document.getElementById(name.getAttribute("aria-describedby")!)?.textContent).toMatch(/@Planner/);
    fireEvent.click(within(form).getByRole("radio", { name: "Green" }));
    fireEvent.click(within(form).getByRole("button", { name: "Save agent" }));
    await until(() => within(page()).queryByRole("status")?.textContent === "Saved Planner.", "saved");
    expect(bridge.calls.filter((c) => c.method === "updateAgent").at(-1)?.args).toEqual([PLANNER_AGENT_ID, { color: "green" }]);
  });

  it("removes an agent only after a confirmation", async () => {
    const { bridge } = await openAgentsPage();
    await bridge.api.createAgent({ name: "Scout" });
    await until(() => rowNames().includes("Scout"), "listed");
    fireEvent.click(within(rows()[1]!).getByRole("button", { name: "Remove Scout" }));
    const confirm = screen.getByRole("dialog", { name: "Remove Scout?" });
    expect(within(confirm).getByText("Scout is removed from this device.")).toBeTruthy();
    fireEvent.click(within(confirm).getByRole("button", { name: "Cancel" }));
    expect(rowNames()).toEqual(["Planner", "Scout"]);
    fireEvent.click(within(rows()[1]!).getByRole("button", { name: "Remove Scout" }));
    fireEvent.click(within(screen.getByRole("dialog", { name: "Remove Scout?" })).getByRole("button", { name: "Remove" }));
    await until(() => rowNames().length === 1, "removed");
    expect(within(page()).getByRole("status").textContent).toBe("Removed Scout.");
  });

  it("follows a teammate's new agent, and says when the agent being configured was removed meanwhile", async () => {
    const { bridge } = await openAgentsPage();
    const scout = await bridge.api.createAgent({ name: "Scout" });
    await until(() => rowNames().includes("Scout"), "listed");
    bridge.agents.receive({ ...scout, id: "a".repeat(32), name: "Builder", createdAt: 5, updatedAt: 5 });
    await until(() => rowNames().join() === "Planner,Builder,Scout", "the teammate's agent");
    fireEvent.click(within(rows()[2]!).getByRole("button", { name: "Configure Scout" }));
    await bridge.api.removeAgent(scout.id);
    await until(() => within(page()).queryByText(/Scout was removed, here or by a teammate/) !== null, "said removed");
    fireEvent.click(within(page()).getByRole("button", { name: "Back to agents" }));
    expect(rowNames()).toEqual(["Planner", "Builder"]);
  });

  it("while the team is not known yet, shows the Planner and offers no change; says profiles it cannot read", async () => {
    await openAgentsPage((bridge) => Object.assign(bridge.agents.state, { teamPending: true }));
    expect(within(page()).getByText(/appear once Chopin reaches the team relay/)).toBeTruthy();
    expect((within(page()).getByRole("button", { name: "Add agent" }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(rows()[0]!).getByRole("button", { name: "Configure Planner" }) as HTMLButtonElement).disabled).toBe(true);
    cleanupApps();
    await openAgentsPage((bridge) => Object.assign(bridge.agents.state, { scope: "team", unreadable: 2 }));
    expect(within(page()).getByText(/Shared with your team through the relay/)).toBeTruthy();
    expect(within(page()).getByRole("note").textContent).toBe("2 agent profiles could not be read on this app (made by a newer Chopin, damaged, or past the limit of 50) and are not shown. Nothing was removed.");
  });

  it("gives way to a document opened from the list", async () => {
    const { bridge } = await openAgentsPage();
    await bridge.api.createDocument({ title: "Launch" });
    await until(() => within(sidebar()).queryByText("Launch") !== null, "listed");
    fireEvent.click(within(sidebar()).getByText("Launch"));
    await until(() => screen.queryByRole("region", { name: "Agents" }) === null, "the page gone");
    await until(() => screen.queryByRole("textbox", { name: "Document title" }) !== null, "the document open");
    expect(agentsEntry()!.getAttribute("aria-current")).toBeNull();
  });
});
