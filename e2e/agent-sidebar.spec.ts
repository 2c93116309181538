/**
 * The sidebar's Agents in Chromium (issue #27), over a host-mode core started with --enable-agent-chat: chat visits
 * are recorded through the API, as the chat view records them (it may not be in this build), and the sidebar lists the
 * four most recent; a star appears on hover and is clicked, another is set by the keyboard (Tab onto it from its row,
 * Enter), keeping the focus as its row moves up; the stars reach the same person's second window; a row opens its chat
 * and is current; Space unstars. The stars and recents are screenshotted in the light and dark themes and every text
 * checked for legibility.
 */
import { expect, test, type Page } from "@playwright/test";
import { openApp } from "./support/app-page.js";
import { connectCoreApi } from "./support/core-api-client.js";
import { shotInBothThemes } from "./support/screens.js";
import { startCore, stopAll, tempDir } from "./support/processes.js";

test.afterAll(async () => {
  await stopAll();
});

const nav = (page: Page) => page.getByRole("navigation", { name: "Documents" });
const chats = (page: Page) => nav(page).getByRole("list", { name: "Agent chats" });
const row = (page: Page, name: string) => chats(page).getByRole("listitem").filter({ has: page.locator(".agent-chat-name", { hasText: new RegExp(`^${name}$`) }) });
const opener = (page: Page, name: string) => row(page, name).getByRole("button").first();
const star = (page: Page, name: string) => row(page, name).getByRole("button", { name: new RegExp(`^(Star|Unstar) ${name}$`) });
const rowNames = (page: Page) => chats(page).locator(".agent-chat-name");


test("starred agents then the four most recent chats: starred by hover and by keyboard, seen in a second window, legible in both themes", async ({ browser }) => {
  const core = await startCore(tempDir("agent-sidebar"), ["--enable-agent-chat"]);
  const client = await connectCoreApi(core.ready);
  const { api } = client;
  const id: Record<string, string> = {};
  for (const [name, color] of [["Scout", "teal"], ["Builder", "orange"], ["Critic", "pink"], ["Drafter", "green"], ["Echo", "red"]] as const) {
    id[name] = (await api.createAgent({ name, color })).id;
  }
  for (const name of ["Builder", "Critic", "Drafter", "Echo", "Scout"]) await api.recordAgentChatVisit(id[name]!);

  const page = await openApp(browser, core.ready.url);
  await expect(rowNames(page)).toHaveText(["Scout", "Echo", "Drafter", "Critic"]);
  await expect(star(page, "Drafter")).toHaveCSS("opacity", "0");

  // Hover shows the star; a click stars Drafter, which moves up, and Builder comes back as the fourth recent.
  await row(page, "Drafter").hover();
  await expect(star(page, "Drafter")).toHaveCSS("opacity", "1");
  await star(page, "Drafter").click();
  await expect(star(page, "Drafter")).toHaveAttribute("aria-pressed", "true");
  await expect(rowNames(page)).toHaveText(["Drafter", "Scout", "Echo", "Critic", "Builder"]);

  // By keyboard: Tab from Echo's row onto its star, which shows; Enter stars it; the focus stays on it as it moves up.
  await page.mouse.move(0, 0);
  await opener(page, "Echo").focus();
  await page.keyboard.press("Tab");
  await expect(star(page, "Echo")).toBeFocused();
  await expect(star(page, "Echo")).toHaveCSS("opacity", "1");
  await page.keyboard.press("Enter");
  await expect(rowNames(page)).toHaveText(["Drafter", "Echo", "Scout", "Critic", "Builder"]);
  await expect(star(page, "Echo")).toHaveAttribute("aria-pressed", "true");
  await expect(star(page, "Echo")).toHaveAccessibleName("Unstar Echo");
  await expect(star(page, "Echo")).toBeFocused();

  // The person's other window shows the same stars.
  const second = await openApp(browser, core.ready.url);
  await expect(rowNames(second)).toHaveText(["Drafter", "Echo", "Scout", "Critic", "Builder"]);
  await expect(star(second, "Echo")).toHaveAttribute("aria-pressed", "true");

  // A row opens its chat and is current while it shows.
  await opener(page, "Scout").click();
  await expect(opener(page, "Scout")).toHaveAttribute("aria-current", "page");
  await expect(opener(page, "Drafter")).not.toHaveAttribute("aria-current", "page");
  await page.mouse.move(0, 0);
  await page.locator("body").focus();
  await shotInBothThemes(page, "the sidebar's starred agents and recent chats");

  // Space unstars Echo by the keyboard: back among the recents, in its visit's place.
  await star(page, "Echo").focus();
  await page.keyboard.press("Space");
  await expect(rowNames(page)).toHaveText(["Drafter", "Scout", "Echo", "Critic", "Builder"]);
  await expect(star(page, "Echo")).toHaveAttribute("aria-pressed", "false");
  await expect(star(page, "Echo")).toBeFocused();
  await expect(rowNames(second)).toHaveText(["Drafter", "Scout", "Echo", "Critic", "Builder"]);
  client.close();
});
