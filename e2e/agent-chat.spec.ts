/**
 * The chat with an agent in Chromium against a real host-mode core (issue #27), the agent's turns run by the real
 * Copilot runtime on our fake OpenAI server (the core's configured provider), agent chat turned on in the switch.
 * The Agents page's Chat action opens the first conversation, which makes nothing; the first send begins the chat
 * and the agent answers; after a reload the chat returns as it was; a paced turn streams ("working"), Stop ends it;
 * `/new` from the composer's slash command shows its divider without asking the model; a send the core refuses (agent
 * chat turned off before this window heard of it) keeps its words and its Retry is sent once it is on again; a long
 * history shows its newest page with earlier messages on request; agent chat turned off says so and keeps the draft.
 * A handoff, by the agent's tool and by the person's action, shows as a card that stays across `/new` and a reload and
 * opens the new plan. A turn the model provider failed shows its error with a Retry, which a double click sends once
 * and the agent answers. Each of these screens is screenshotted in the light and dark themes and every text on it
 * checked for legibility.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { shotInBothThemes } from "./support/screens.js";
import { connectCoreApi, type CoreApiClient } from "./support/core-api-client.js";
import { startPlannerModel, type PlannerModel } from "./support/planner-model.js";
import { startCore, stopAll, tempDir } from "./support/processes.js";
import { CONVERSATION_PANEL_PAGE_ENTRIES } from "../renderer/src/limits.js";

let model: PlannerModel | undefined;
let client: CoreApiClient | undefined;
test.afterAll(async () => {
  client?.close();
  await stopAll();
  await model?.fake.close();
});

const messages = (page: Page) => page.getByRole("log", { name: "Messages" });
const box = (page: Page) => page.getByRole("textbox", { name: "Message" });
const chatState = (page: Page) => page.locator(".agent-chat-state");


/**
 * The window, with its API socket passed through a route that can hold back "experimental-settings-changed" (so the
 * window can be made to send while it still believes agent chat is on, and the core itself refuses).
 */
async function openWindow(browser: Browser, url: string): Promise<{ page: Page; hideSwitchEvents(hide: boolean): void }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  let hide = false;
  await page.routeWebSocket(/\/api\?/, (socket) => {
    const server = socket.connectToServer();
    server.onMessage((message) => {
      if (hide && typeof message === "string" && message.includes('"event":"experimental-settings-changed"')) return;
      socket.send(message);
    });
  });
  await page.goto(url);
  await expect(page.getByRole("button", { name: "New document" })).toBeVisible();
  return { page, hideSwitchEvents: (next) => (hide = next) };
}

async function openChatWithScout(page: Page): Promise<void> {
  await page.getByRole("navigation", { name: "Documents" }).getByRole("button", { name: "Agents" }).click();
  await page.getByRole("button", { name: "Chat with Scout" }).click();
  await expect(page.getByRole("heading", { name: "Chat with Scout" })).toBeVisible();
  await expect(page).toHaveTitle("Chat with Scout — Chopin");
}

async function send(page: Page, text: string): Promise<void> {
  await box(page).fill(text);
  await box(page).press("Enter");
  await expect(messages(page).getByText(text, { exact: true })).toBeVisible({ timeout: 30_000 });
}

test("a chat with an agent: first conversation, returning, working, stopped, session divider, failed send, long history, turned off", async ({ browser }) => {
  test.setTimeout(300_000);
  model = await startPlannerModel();
  const core = await startCore(tempDir("agent-chat"), model.args, model.env);
  client = await connectCoreApi(core.ready);
  await client.api.updateSettings({ displayName: "Ada" });
  await client.api.updateExperimentalSettings({ enableAgentChat: true });
  const scout = await client.api.createAgent({ name: "Scout", color: "teal", instructions: "Ask before drafting." });
  const { page, hideSwitchEvents } = await openWindow(browser, core.ready.url);

  // First conversation: a read only, nothing is made.
  await openChatWithScout(page);
  await expect(page.getByText("This is the start of your conversation with Scout.")).toBeVisible();
  await expect(chatState(page)).toHaveText("No messages yet");
  expect(await client.api.readAgentChat(scout.id)).toBeNull();
  await shotInBothThemes(page, "first conversation");

  // The first send begins the chat, and the agent answers.
  model.fake.script({ text: "What date do you aim for?", chunks: 3, delayMs: 20 });
  await send(page, "Help me plan the launch");
  await expect(messages(page).getByText("What date do you aim for?")).toBeVisible({ timeout: 60_000 });
  await expect(chatState(page)).toHaveText("Waiting for you", { timeout: 30_000 });
  expect(await client.api.listDocuments()).toEqual([]);

  // Returning: after a reload the chat is read again, as it was.
  await page.reload();
  await expect(page.getByRole("button", { name: "New document" })).toBeVisible();
  await openChatWithScout(page);
  await expect(messages(page).getByText("Help me plan the launch")).toBeVisible();
  await expect(messages(page).getByText("What date do you aim for?")).toBeVisible();
  await expect(chatState(page)).toHaveText("Waiting for you");
  await shotInBothThemes(page, "returning");

  // Working: a paced answer streams; Stop ends the turn.
  const paced = Array.from({ length: 40 }, (_, n) => `Step ${n + 1} of the launch draft.`).join(" ");
  model.fake.script({ text: paced, chunks: 40, delayMs: 1_500 });
  await send(page, "Draft it for May");
  await expect(messages(page).getByText("Working on it…")).toBeVisible({ timeout: 60_000 });
  await expect(messages(page).getByText(/Step 1 of the launch draft/)).toBeVisible({ timeout: 60_000 });
  await expect(chatState(page)).toHaveText("Active: Scout is answering");
  await shotInBothThemes(page, "working");
  await messages(page).getByRole("button", { name: "Stop" }).click();
  await expect(messages(page).getByText(/Stopped by Ada/)).toBeVisible({ timeout: 60_000 });
  await expect(messages(page).getByText("Working on it…")).toHaveCount(0);
  await expect(chatState(page)).toHaveText("Waiting for you", { timeout: 30_000 });
  await shotInBothThemes(page, "stopped");

  // Session divider: /new from the slash command, processed without asking the model.
  const asked = model.fake.requests.length;
  await box(page).fill("/");
  const commands = page.getByRole("listbox", { name: "Commands" });
  await expect(commands.getByRole("option")).toHaveText("/new Start a new session: the agent forgets what was said before");
  await expect(box(page)).toHaveAttribute("aria-activedescendant", (await commands.getByRole("option").getAttribute("id"))!);
  await box(page).press("Enter");
  await expect(box(page)).toHaveValue("/new");
  await box(page).press("Enter");
  await expect(messages(page).getByRole("separator", { name: "New session: Scout starts afresh from here" })).toBeVisible({ timeout: 60_000 });
  await expect(chatState(page)).toHaveText("Waiting for you", { timeout: 30_000 });
  expect(model.fake.requests.length).toBe(asked);
  await shotInBothThemes(page, "session divider");

  // Failed send: agent chat is turned off before this window heard of it, so the core refuses; the words stay, and
  // once it is on again Retry sends them (one entry).
  hideSwitchEvents(true);
  await client.api.updateExperimentalSettings({ enableAgentChat: false });
  await box(page).fill("Who owns the launch?");
  await box(page).press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "Not sent: Agent chat is turned off on this app" })).toBeVisible();
  await expect(box(page)).toHaveValue("Who owns the launch?");
  await shotInBothThemes(page, "failed send");
  hideSwitchEvents(false);
  await client.api.updateExperimentalSettings({ enableAgentChat: true });
  model.fake.script({ text: "You do, Ada.", chunks: 2, delayMs: 20 });
  await page.getByRole("button", { name: "Retry", exact: true }).click();
  await expect(messages(page).getByText("Who owns the launch?")).toHaveCount(1, { timeout: 30_000 });
  await expect(box(page)).toHaveValue("");
  await expect(messages(page).getByText("You do, Ada.")).toBeVisible({ timeout: 60_000 });

  // Long history: more than a page; the newest page shows, earlier messages on request.
  const chat = await client.api.readAgentChat(scout.id);
  if (!chat?.planId) throw new Error("the chat has begun by now");
  for (let n = 1; n <= CONVERSATION_PANEL_PAGE_ENTRIES + 5; n++) {
    await client.api.postMessage(chat.planId, { text: `Note ${n} for later`, to: "room", clientRequestId: `note-${n}` });
  }
  await page.reload();
  await expect(page.getByRole("button", { name: "New document" })).toBeVisible();
  await openChatWithScout(page);
  await expect(messages(page).getByText(`Note ${CONVERSATION_PANEL_PAGE_ENTRIES + 5} for later`)).toBeVisible();
  await expect(messages(page).getByText("Help me plan the launch")).toHaveCount(0);
  await shotInBothThemes(page, "long history");
  await messages(page).getByRole("button", { name: "Show earlier messages" }).click();
  await expect(messages(page).getByText("Help me plan the launch")).toBeVisible();

  // Turned off while the chat is open: it says so and keeps the draft; on again, the draft is there to send.
  await box(page).fill("A thought for later");
  await client.api.updateExperimentalSettings({ enableAgentChat: false });
  await expect(page.getByRole("alert").filter({ hasText: "Agent chat is turned off on this app" })).toBeVisible();
  await expect(box(page)).toBeDisabled();
  await expect(box(page)).toHaveValue("A thought for later");
  await expect(page.getByRole("navigation", { name: "Documents" }).getByRole("button", { name: "Agents" })).toHaveCount(0);
  await shotInBothThemes(page, "disabled feature");
  await client.api.updateExperimentalSettings({ enableAgentChat: true });
  await expect(box(page)).toBeEnabled();
  await expect(box(page)).toHaveValue("A thought for later");
});

test("a handoff: the agent's and the person's handed-off plans show as cards that open them, kept across /new and a reload", async ({ browser }) => {
  test.setTimeout(240_000);
  model = await startPlannerModel();
  const core = await startCore(tempDir("agent-chat-handoff"), model.args, model.env);
  client = await connectCoreApi(core.ready);
  await client.api.updateSettings({ displayName: "Ada" });
  await client.api.updateExperimentalSettings({ enableAgentChat: true });
  await client.api.createAgent({ name: "Scout", color: "teal", tools: ["read_plan", "edit_plan", "hand_off_plan"] });
  const { page } = await openWindow(browser, core.ready.url);
  await openChatWithScout(page);

  // The agent hands the plan off with its tool: the plan is made (and listed) before its card shows in the chat.
  const call = { name: "hand_off_plan", arguments: { title: "Spring launch", brief: "For the spring launch: dates and owners." } };
  model.fake.script({ toolCalls: [call] }, { text: "Handed off as Spring launch." });
  await send(page, "Hand off what we have as Spring launch");
  const agentCard = messages(page).getByRole("region", { name: "Handed-off plan: Spring launch" });
  await expect(agentCard).toBeVisible({ timeout: 60_000 });
  await expect(messages(page).getByText("Handed off as Spring launch.")).toBeVisible({ timeout: 60_000 });
  expect((await client.api.listDocuments()).map((d) => d.title)).toEqual(["Spring launch"]);

  // The person hands it off too, from the chat's header.
  await page.getByRole("button", { name: "Hand off plan" }).click();
  const dialog = page.getByRole("dialog", { name: "Hand off the plan" });
  await dialog.getByRole("textbox", { name: "Title" }).fill("Launch checklist");
  await dialog.getByRole("textbox", { name: "Brief" }).fill("What must be done before the launch.");
  await dialog.getByRole("button", { name: "Hand off" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(messages(page).getByRole("region", { name: "Handed-off plan: Launch checklist" })).toBeVisible({ timeout: 30_000 });
  await shotInBothThemes(page, "handoff card");

  // The cards are durable: after /new and a reload both are there, and a card opens its plan.
  await send(page, "/new");
  await expect(messages(page).getByRole("separator", { name: "New session: Scout starts afresh from here" })).toBeVisible({ timeout: 60_000 });
  await page.reload();
  await expect(page.getByRole("button", { name: "New document" })).toBeVisible();
  await openChatWithScout(page);
  await expect(agentCard).toBeVisible();
  await expect(messages(page).getByRole("region", { name: "Handed-off plan: Launch checklist" })).toBeVisible();
  await agentCard.getByRole("button", { name: "Open Spring launch" }).click();
  await expect(page.getByRole("textbox", { name: "Document title" })).toHaveValue("Spring launch");
});

test("a failed turn: the provider's error shows with a Retry that sends the message again once, and is answered", async ({ browser }) => {
  test.setTimeout(180_000);
  model = await startPlannerModel();
  const core = await startCore(tempDir("agent-chat-failed-turn"), model.args, model.env);
  client = await connectCoreApi(core.ready);
  await client.api.updateSettings({ displayName: "Ada" });
  await client.api.updateExperimentalSettings({ enableAgentChat: true });
  const scout = await client.api.createAgent({ name: "Scout", color: "teal" });
  const { page } = await openWindow(browser, core.ready.url);
  await openChatWithScout(page);

  model.fake.script({ error: 400, message: "This model is not available to you." });
  await send(page, "Plan the spring launch");
  await expect(messages(page).getByText(/^The model provider failed, so Scout could not answer: /)).toBeVisible({ timeout: 60_000 });
  await expect(messages(page).getByText("This turn failed.", { exact: false })).toBeVisible();
  await expect(chatState(page)).toHaveText("Waiting for you");
  const retry = messages(page).getByRole("button", { name: "Retry: Plan the spring launch", exact: true });
  await expect(retry).toBeVisible();
  await shotInBothThemes(page, "failed turn");

  // A double click posts once (the retry's key is the failed turn's), and the new message is answered.
  model.fake.script({ text: "Which spring: March or April?", chunks: 2, delayMs: 20 });
  await retry.dblclick();
  await expect(messages(page).getByText("Which spring: March or April?")).toBeVisible({ timeout: 60_000 });
  const chat = await client.api.readAgentChat(scout.id);
  expect(chat!.page!.entries.filter((e) => e.author.kind === "person").map((e) => e.text)).toEqual(["Plan the spring launch", "Plan the spring launch"]);
  expect(model.fake.requests).toHaveLength(2);
  await shotInBothThemes(page, "failed turn retried");
});
