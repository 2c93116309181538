// @vitest-environment jsdom
/**
 * The sidebar's Agents in the whole window, over the window's test double (issue #27): starred agents alphabetically
 * then recent chats, one list without a divider; at most four recents (the fifth visit's oldest is out); a row opens
 * the chat, is current while it shows and records no visit (the chat view's hook does); the star shows on hover, on
 * keyboard focus and while starred, keeps the focus when its row moves and hands it to the Agents entry when the row
 * leaves; a refused star says why; a star from the person's other device arrives; agent chat off takes the rows away.
 */
import { afterEach, describe, expect, it } from "vitest";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { MAX_AGENT_STARS } from "../../../shared/limits.js";
import { PLANNER_AGENT_ID } from "../../../shared/schema/agent-profiles.js";
import { useRecordChatVisit } from "../agent-chat/use-chat-visit.js";
import { AppServicesContext } from "../state/app-services.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";
import type { MemoryBridge } from "../test/memory-bridge.js";

afterEach(cleanupApps);

const nav = () => screen.getByRole("navigation", { name: "Documents" });
const chatList = () => within(nav()).queryByRole("list", { name: "Agent chats" });
const rowNames = () => (chatList() ? within(chatList()!).getAllByRole("listitem").map((row) => row.querySelector(".agent-chat-name")!.textContent) : []);
const row = (name: string) => within(chatList()!).getAllByRole("listitem").find((item) => item.querySelector(".agent-chat-name")!.textContent === name)!;
const open = (name: string) => within(row(name)).getAllByRole("button")[0]!;
const star = (name: string) => within(row(name)).getByRole("button", { name: new RegExp(`^(Star|Unstar) ${name}$`) });

async function withAgents(...names: string[]) {
  const app = renderApp();
  await app.bridge.api.updateExperimentalSettings({ enableAgentChat: true });
  const ids: Record<string, string> = { Planner: PLANNER_AGENT_ID };
  for (const name of names) ids[name] = (await app.bridge.api.createAgent({ name })).id;
  await until(() => within(nav()).queryByRole("button", { name: "Agents" }) !== null, "the Agents entry");
  return { ...app, ids };
}

const visit = (bridge: MemoryBridge, id: string) => act(async () => void (await bridge.api.recordAgentChatVisit(id)));

describe("the sidebar's Agents", () => {
  it("list starred agents by name, then recent chats, without a divider; a row opens its chat, current while it shows, recording no visit", async () => {
    const { bridge, services, ids } = await withAgents("Scout", "Builder", "critic");
    expect(chatList()).toBeNull();
    for (const name of ["Builder", "Scout", "critic"]) await visit(bridge, ids[name]!);
    await act(async () => void (await bridge.api.setAgentStarred(ids.Scout!, true)));
    await act(async () => void (await bridge.api.setAgentStarred(PLANNER_AGENT_ID, true)));
    await until(() => rowNames().join() === "Planner,Scout,critic,Builder", "stars then recents");
    expect(star("Planner").getAttribute("aria-pressed")).toBe("true");
    expect(star("critic").getAttribute("aria-pressed")).toBe("false");
    // One list: its children are the rows and nothing else.
    expect([...chatList()!.children].every((child) => child.tagName === "LI")).toBe(true);
    expect(within(nav()).queryByRole("separator")).toBeNull();

    const before = bridge.calls.filter((call) => call.method === "recordAgentChatVisit").length;
    fireEvent.click(open("Builder"));
    expect(services.ui.getState()).toMatchObject({ page: "agent-chat", chatAgentId: ids.Builder });
    await until(() => open("Builder").getAttribute("aria-current") === "page", "Builder current");
    expect(open("Scout").getAttribute("aria-current")).toBeNull();
    expect(row("Builder").className).toContain("is-current");
    expect(bridge.calls.filter((call) => call.method === "recordAgentChatVisit").length).toBe(before);
    // Another page: no row is current.
    act(() => services.ui.getState().showPage("agents"));
    await until(() => open("Builder").getAttribute("aria-current") === null, "Builder no longer current");
  });

  it("show at most four recents: a fifth visit pushes the oldest out", async () => {
    const { bridge, ids } = await withAgents("A1", "A2", "A3", "A4");
    for (const name of ["A1", "A2", "A3", "A4"]) await visit(bridge, ids[name]!);
    await until(() => rowNames().join() === "A4,A3,A2,A1", "four recents");
    await visit(bridge, PLANNER_AGENT_ID);
    await until(() => rowNames().join() === "Planner,A4,A3,A2", "the oldest out");
  });

  it("shows the star on hover and on keyboard focus, and always while starred", async () => {
    const { bridge, ids } = await withAgents("Scout");
    await visit(bridge, ids.Scout!);
    await until(() => rowNames().join() === "Scout", "Scout listed");
    expect(star("Scout").getAttribute("data-shown")).toBe("false");
    fireEvent.mouseEnter(row("Scout"));
    expect(star("Scout").getAttribute("data-shown")).toBe("true");
    fireEvent.mouseLeave(row("Scout"));
    expect(star("Scout").getAttribute("data-shown")).toBe("false");
    // Tabbing onto the row's chat button shows it, and so does the star's own focus; leaving the row hides it.
    act(() => open("Scout").focus());
    expect(star("Scout").getAttribute("data-shown")).toBe("true");
    act(() => star("Scout").focus());
    expect(star("Scout").getAttribute("data-shown")).toBe("true");
    act(() => within(nav()).getByRole("searchbox").focus());
    expect(star("Scout").getAttribute("data-shown")).toBe("false");
    await act(async () => void (await bridge.api.setAgentStarred(ids.Scout!, true)));
    await until(() => star("Scout").getAttribute("aria-pressed") === "true", "starred");
    expect(star("Scout").getAttribute("data-shown")).toBe("true");
  });

  it("stars by the keyboard: the focus stays on the star as its row moves up, and goes to the Agents entry when the row leaves", async () => {
    const { bridge, ids } = await withAgents("Alpha", "Zed");
    await visit(bridge, ids.Zed!);
    await visit(bridge, ids.Alpha!);
    await until(() => rowNames().join() === "Alpha,Zed", "two recents");
    act(() => star("Zed").focus());
    // A native button's Enter and Space are a click.
    fireEvent.click(star("Zed"));
    await until(() => rowNames().join() === "Zed,Alpha", "Zed starred, first");
    expect(star("Zed").getAttribute("aria-pressed")).toBe("true");
    expect(document.activeElement).toBe(star("Zed"));
    expect(star("Zed").getAttribute("aria-label")).toBe("Unstar Zed");

    // The Planner, starred and never visited, leaves the list when unstarred: the focus goes to the Agents entry.
    await act(async () => void (await bridge.api.setAgentStarred(PLANNER_AGENT_ID, true)));
    await until(() => rowNames().join() === "Planner,Zed,Alpha", "the Planner starred");
    act(() => star("Planner").focus());
    fireEvent.click(star("Planner"));
    await until(() => rowNames().join() === "Zed,Alpha", "the Planner gone");
    expect(document.activeElement).toBe(within(nav()).getByRole("button", { name: "Agents" }));
  });

  it(`says why a star is refused past ${MAX_AGENT_STARS}`, async () => {
    const { bridge } = await withAgents();
    const made = [];
    for (let i = 0; i < MAX_AGENT_STARS; i++) made.push(await bridge.api.createAgent({ name: `Agent ${String(i).padStart(2, "0")}` }));
    for (const agent of made) await bridge.api.setAgentStarred(agent.id, true);
    await visit(bridge, PLANNER_AGENT_ID);
    await until(() => rowNames().length === MAX_AGENT_STARS + 1, "every star and the Planner");
    fireEvent.click(star("Planner"));
    await until(() => within(nav()).queryByRole("alert") !== null, "the refusal");
    expect(within(nav()).getByRole("alert").textContent).toMatch(new RegExp(`at most ${MAX_AGENT_STARS}`));
    expect(star("Planner").getAttribute("aria-pressed")).toBe("false");
  });

  it("shows a star from the person's other device, a visit the chat view records, and nothing once agent chat is off", async () => {
    const { bridge, services, ids } = await withAgents("Scout");
    act(() => bridge.agents.receiveStar(ids.Scout!, true));
    await until(() => rowNames().join() === "Scout", "the other device's star");

    function ChatView({ agentId }: { agentId: string }) {
      useRecordChatVisit(agentId);
      return null;
    }
    const view = render(
      <AppServicesContext.Provider value={services}>
        <ChatView agentId={PLANNER_AGENT_ID} />
      </AppServicesContext.Provider>,
    );
    await until(() => rowNames().join() === "Scout,Planner", "the visit a recent");
    view.unmount();

    await act(async () => void (await bridge.api.updateExperimentalSettings({ enableAgentChat: false })));
    await until(() => within(nav()).queryByRole("button", { name: "Agents" }) === null, "the entry gone");
    expect(chatList()).toBeNull();
  });
});
