// @vitest-environment jsdom
/**
 * Teammates' chats on the Agents page, over the window's test double (issue #27): each agent's row links its
 * teammates' chats with it (never this person's own); a link opens that chat's plan with the conversation beside it,
 * read-only: a banner says why, the title cannot be typed in and the composer is disabled with the same sentence.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import type { DocumentDetail } from "../../../shared/api.js";
import { PLANNER_AGENT_ID } from "../../../shared/schema/agent-profiles.js";
import { TEAMMATES_CHAT } from "../components/DocumentView.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";
import type { MemoryBridge } from "../test/memory-bridge.js";

afterEach(cleanupApps);

const sidebar = () => screen.getByRole("navigation", { name: "Documents" });
const agentsEntry = () => within(sidebar()).queryByRole("button", { name: "Agents" });
const chatsOf = (agent: string) => screen.queryByRole("list", { name: `Teammates’ chats with ${agent}` });

/** Alice's chat with the Planner, as the team's list brings it to this device: a teammate's, read-only here. */
function alicesChat(bridge: MemoryBridge): DocumentDetail {
  const doc: DocumentDetail = {
    id: "chat-alice" as DocumentDetail["id"],
    url: "automerge:chat-alice",
    title: "Agent chat",
    createdVia: "app",
    archivedAt: null,
    createdAt: 1,
    updatedAt: 1,
    shared: true,
    repository: null,
    provenance: null,
    brief: null,
    revision: "r0",
    agentChat: { agentId: PLANNER_AGENT_ID, person: "github:alice" },
    teammatesChat: true,
  };
  bridge.docs.set(doc.id, doc);
  return doc;
}

async function openAgentsPage(bridge: MemoryBridge) {
  await bridge.api.updateExperimentalSettings({ enableAgentChat: true });
  await until(() => agentsEntry() !== null, "the Agents entry");
  fireEvent.click(agentsEntry()!);
  await until(() => screen.queryByRole("list", { name: "Agent profiles" }) !== null, "the list");
}

describe("teammates' chats on the Agents page", () => {
  it("link each agent's teammates' chats, not this person's own, and open one read-only with its conversation", async () => {
    const app = renderApp((bridge) => void alicesChat(bridge));
    await until(() => screen.queryByRole("button", { name: "New document" }) !== null, "the sidebar");
    await app.bridge.api.updateExperimentalSettings({ enableAgentChat: true });
    const scout = await app.bridge.api.createAgent({ name: "Scout" });
    // This person's own chat with Scout is in the table too, and is not a teammate's link.
    await app.bridge.api.sendAgentChat(scout.id, { text: "mine", clientRequestId: "own-1" });
    await openAgentsPage(app.bridge);

    await until(() => chatsOf("Planner") !== null, "the Planner's teammates' chats");
    const link = within(chatsOf("Planner")!).getByRole("link", { name: "alice’s chat" });
    expect(link.getAttribute("title")).toBe("Read alice’s chat with Planner (only they write in it)");
    expect(chatsOf("Scout")).toBeNull();

    fireEvent.click(link);
    await until(() => screen.queryByRole("region", { name: "Agents" }) === null, "the page gives way to the plan");
    await until(() => screen.queryByText(TEAMMATES_CHAT) !== null, "the read-only banner");
    expect(screen.getByText(TEAMMATES_CHAT).getAttribute("role")).toBe("status");
    expect((screen.getByRole("textbox", { name: "Document title" }) as HTMLInputElement).readOnly).toBe(true);
    await until(() => screen.queryByRole("region", { name: "Conversation" }) !== null, "the conversation beside it");
    const message = within(screen.getByRole("region", { name: "Conversation" })).getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;
    expect(message.disabled).toBe(true);
    expect(message.placeholder).toBe(TEAMMATES_CHAT);
  });

  it("show no links while the table cannot be read, and the page works on", async () => {
    let refused = 0;
    const app = renderApp((bridge) => {
      alicesChat(bridge);
      bridge.api.listAgentChats = () => {
        refused++;
        return Promise.reject(Object.assign(new Error("Cannot reach the relay."), { code: "relay-unavailable" }));
      };
    });
    await until(() => screen.queryByRole("button", { name: "New document" }) !== null, "the sidebar");
    await openAgentsPage(app.bridge);
    await until(() => refused > 0, "the page asked for the table");
    expect(within(screen.getByRole("list", { name: "Agent profiles" })).getAllByRole("listitem")).toHaveLength(1);
    expect(chatsOf("Planner")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
