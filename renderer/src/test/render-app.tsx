/**
 * Test support (imported only by *.test.tsx): the whole App rendered over a memory bridge and a pair of linked
 * in-memory repos (the core's, and this window's replica, run by an in-process replica host). Call cleanupApps()
 * after each test.
 */
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { until } from "./until.js";
import { AppServicesContext, createAppServices, type AppServicesOptions } from "../state/app-services.js";
import { App } from "../components/App.js";
import { linkedRepos } from "./linked-repos.js";
import { startInProcessReplica } from "../replica-link/in-process-replica.js";
import { createMemoryBridge, type MemoryBridge } from "./memory-bridge.js";

const closers: (() => void)[] = [];

/** `prepare` may replace bridge methods before the App first calls them; `options` go to createAppServices. */
export function renderApp(prepare?: (bridge: MemoryBridge) => void, options?: AppServicesOptions) {
  const { core, replica, close } = linkedRepos();
  closers.push(close);
  const bridge = createMemoryBridge(core);
  prepare?.(bridge);
  const host = startInProcessReplica({ repo: replica, api: bridge.api, notify: (notice) => services.documents.getState().showNotice(notice) });
  closers.push(host.stop);
  const services = createAppServices(bridge, host.client, undefined, options);
  render(
    <AppServicesContext.Provider value={services}>
      <App />
    </AppServicesContext.Provider>,
  );
  return { bridge, services, core };
}

export function cleanupApps(): void {
  cleanup();
  while (closers.length) closers.pop()!();
}

/** The App with one plan, `title`, made through the bridge and opened from the list; resolves once its title field is there. */
export async function renderAppWithPlanOpen(title = "Plan", prepare?: (bridge: MemoryBridge) => void) {
  const app = renderApp(prepare);
  await app.bridge.api.createDocument({ title });
  const nav = screen.getByRole("navigation", { name: "Documents" });
  await until(() => within(nav).queryByText(title) !== null, `${title} listed`);
  fireEvent.click(within(nav).getByText(title));
  await until(() => screen.queryByRole("textbox", { name: "Document title" }) !== null, "the title field");
  return app;
}

/**
 * The App with plan `title` opened from the list (made through the bridge, after what `before` makes) and its
 * conversation panel open; resolves once the composer is there.
 */
export async function renderAppWithConversationOpen(title = "Plan", before: (bridge: MemoryBridge) => Promise<void> = async () => {}) {
  const app = renderApp();
  await before(app.bridge);
  const plan = await app.bridge.api.createDocument({ title });
  const nav = screen.getByRole("navigation", { name: "Documents" });
  await until(() => within(nav).queryByText(title) !== null, `${title} listed`);
  fireEvent.click(within(nav).getByText(title));
  await until(() => screen.queryByRole("button", { name: "Conversation" }) !== null, "the plan open");
  fireEvent.click(screen.getByRole("button", { name: "Conversation" }));
  await until(() => screen.queryByRole("textbox", { name: "Message" }) !== null, "the composer");
  return { app, plan };
}

/**
 * The App with agent chat on and agent Scout added, its chat opened from the Agents page's Chat action; resolves once
 * the chat's heading is there. The chat's plan id is the double's (agent-chat-turns.ts chatPlanIdOf).
 */
export async function renderAppWithScoutChatOpen() {
  const app = renderApp();
  await app.bridge.api.updateExperimentalSettings({ enableAgentChat: true });
  const scout = await app.bridge.api.createAgent({ name: "Scout", color: "teal" });
  const sidebar = screen.getByRole("navigation", { name: "Documents" });
  await until(() => within(sidebar).queryByRole("button", { name: "Agents" }) !== null, "the Agents entry");
  fireEvent.click(within(sidebar).getByRole("button", { name: "Agents" }));
  await until(() => screen.queryByRole("button", { name: "Chat with Scout" }) !== null, "the Chat action");
  fireEvent.click(screen.getByRole("button", { name: "Chat with Scout" }));
  await until(() => screen.queryByRole("heading", { name: "Chat with Scout" }) !== null, "the chat");
  return { app, scout };
}
