/**
 * Agent profiles in two people's windows (issue #27): a relay process admits Alice and Bob by relay token; Alice's
 * host-mode core is started with --enable-agent-chat, Bob turns agent chat on in Settings → Experimental. Alice adds an
 * agent on the Agents page, Bob's page shows it through the relay, Bob's change of its colour reaches Alice's, and
 * Alice's removal (confirmed) leaves Bob's list. Alice's Agents page and the agent's configuration are screenshotted
 * in the light and dark themes and every text on them checked for legibility (the avatars' initials included). Bob
 * turning agent chat off takes the Agents entry away.
 */
import { expect, test, type Page } from "@playwright/test";
import { openApp } from "./support/app-page.js";
import { shotInBothThemes } from "./support/screens.js";
import { startCore, stopAll, tempDir } from "./support/processes.js";
import { addRelayUser, startRelayProcess } from "./support/relay.js";
import { freePort } from "./support/tcp-proxy.js";

test.afterAll(async () => {
  await stopAll();
});

const agentsEntry = (page: Page) => page.getByRole("navigation", { name: "Documents" }).getByRole("button", { name: "Agents" });
const agentList = (page: Page) => page.getByRole("list", { name: "Agent profiles" });
const row = (page: Page, name: string) => agentList(page).getByRole("listitem").filter({ hasText: name });


test("a team's agents: added by one person, seen, changed and removed across both windows, legible in both themes", async ({ browser }) => {
  const relayDir = tempDir("agents-relay");
  const port = await freePort();
  const [tokenA, tokenB] = [await addRelayUser(relayDir, "alice"), await addRelayUser(relayDir, "bob")];
  await startRelayProcess(relayDir, port);
  const relay = ["--relay", `ws://127.0.0.1:${port}`];
  const [coreA, coreB] = await Promise.all([
    startCore(tempDir("agents-a"), [...relay, "--relay-token", tokenA, "--enable-agent-chat"]),
    startCore(tempDir("agents-b"), [...relay, "--relay-token", tokenB]),
  ]);
  const alice = await openApp(browser, coreA.ready.url);
  const bob = await openApp(browser, coreB.ready.url);

  // Alice's run has agent chat on from its command line; Bob's has it off until he turns it on.
  await agentsEntry(alice).click();
  await expect(alice.getByRole("main", { name: "Agents" })).toBeVisible();
  await expect(alice.getByText(/Shared with your team through the relay/)).toBeVisible({ timeout: 30_000 });
  await expect(agentsEntry(bob)).toHaveCount(0);

  await alice.getByRole("button", { name: "Add agent" }).click();
  const form = alice.getByRole("form", { name: "New agent" });
  await form.getByLabel("Name").fill("Scout");
  await form.getByRole("radio", { name: "Teal" }).check();
  await form.getByLabel("Instructions").fill("Find the **gaps** in the plan before anyone builds.");
  await form.getByLabel("Model", { exact: true }).selectOption("openai");
  await form.getByLabel("Model name").fill("gpt-x");
  await form.getByRole("checkbox", { name: /Edit the plan/ }).check();
  await shotInBothThemes(alice, "a new agent's configuration");
  await form.getByRole("button", { name: "Add agent" }).click();
  await expect(row(alice, "Scout")).toContainText("OpenAI-compatible, gpt-x · 9 tools");

  await bob.getByRole("button", { name: "Settings" }).click();
  const settings = bob.getByRole("dialog", { name: "Settings" });
  await settings.getByRole("checkbox", { name: "Agent chat" }).check();
  await expect(settings.getByRole("status").filter({ hasText: "Agent chat is on" })).toBeVisible();
  await bob.keyboard.press("Escape");
  await agentsEntry(bob).click();
  await expect(row(bob, "Scout")).toContainText("OpenAI-compatible, gpt-x", { timeout: 30_000 });

  await row(bob, "Scout").getByRole("button", { name: "Configure Scout" }).click();
  const bobForm = bob.getByRole("form", { name: "Configure Scout" });
  await expect(bobForm.getByLabel("Instructions")).toHaveValue("Find the **gaps** in the plan before anyone builds.");
  await bobForm.getByLabel("Model", { exact: true }).selectOption("team-default");
  await bobForm.getByRole("button", { name: "Save agent" }).click();
  await expect(row(bob, "Scout")).toContainText("Team default · 9 tools");
  await expect(row(alice, "Scout")).toContainText("Team default · 9 tools", { timeout: 30_000 });
  await shotInBothThemes(alice, "the Agents page");

  await row(alice, "Scout").getByRole("button", { name: "Remove Scout" }).click();
  const confirm = alice.getByRole("dialog", { name: "Remove Scout?" });
  await expect(confirm).toContainText("Scout is removed for everyone on your team.");
  await confirm.getByRole("button", { name: "Remove" }).click();
  await expect(row(alice, "Scout")).toHaveCount(0);
  await expect(row(bob, "Scout")).toHaveCount(0, { timeout: 30_000 });
  await expect(agentList(bob).getByRole("listitem")).toHaveCount(1);

  await bob.getByRole("button", { name: "Settings" }).click();
  await bob.getByRole("dialog", { name: "Settings" }).getByRole("checkbox", { name: "Agent chat" }).uncheck();
  await bob.keyboard.press("Escape");
  await expect(agentsEntry(bob)).toHaveCount(0);
  await expect(bob.getByRole("main", { name: "No document open" })).toBeVisible();
});
