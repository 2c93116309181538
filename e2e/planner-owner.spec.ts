/**
 * Who runs the Planner, in two people's windows (issue #25): Alice and Bob each have a host-mode core, a relay process
 * admits both by relay token, and both are signed in to the fake GitHub (another process), which makes their apps
 * eligible. Alice's message to @Planner makes her app the owner and both windows say so at once; Bob resets the
 * ownership from the panel's details after confirming; the reset shows in both conversations naming Bob, Alice's turn
 * (begun, never answered: the model here never answers) shows as interrupted and is not run again, and Bob's next
 * message makes his app the owner under generation 2, which Alice's window shows too.
 */
import { expect, test, type Page } from "@playwright/test";
import { createDocument, openApp, openDocument } from "./support/app-page.js";
import { signIn, startPlannerTeam, type PlannerTeam } from "./support/planner-team.js";
import { stopAll } from "./support/processes.js";

let team: PlannerTeam | undefined;
test.afterAll(async () => {
  await stopAll();
  await team?.close();
});

const planner = (page: Page) => page.getByRole("status", { name: "Planner" });
const messages = (page: Page) => page.getByRole("log", { name: "Messages" });

async function openConversation(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Conversation" }).click();
  await expect(messages(page)).toBeVisible();
}

test("the owner is shown in both windows once one of them asks the Planner, and a confirmed reset hands it on", async ({ browser }) => {
  // The Planner's turns never end here (the model never answers): messages to it keep waiting, so ownership alone is
  // what the test watches.
  team = await startPlannerTeam("planner");
  const { coreA, coreB } = team;
  (await signIn(team, coreA.ready, "alice")).close();
  (await signIn(team, coreB.ready, "bob")).close();
  const alice = await openApp(browser, coreA.ready.url);
  const bob = await openApp(browser, coreB.ready.url);

  await createDocument(alice, "Planned together");
  await openConversation(alice);
  await openDocument(bob, "Planned together");
  await openConversation(bob);
  await expect(planner(bob)).toContainText("Nobody runs the Planner here yet", { timeout: 20_000 });

  const box = alice.getByRole("textbox", { name: "Message" });
  await box.fill("@Planner draft the milestones");
  await box.press("Enter");
  await expect(planner(alice)).toContainText("Planner runs on this app", { timeout: 20_000 });
  await expect(planner(bob)).toContainText("Planner runs on alice's app", { timeout: 20_000 });

  await planner(bob).getByText("Details").click();
  await expect(planner(bob).getByText("Ownership generation").locator("xpath=following-sibling::dd[1]")).toHaveText("1");
  await planner(bob).getByRole("button", { name: "Reset Planner ownership" }).click();
  const confirm = bob.getByRole("dialog", { name: "Reset Planner ownership?" });
  await expect(confirm).toContainText("alice's app stops running the Planner");
  await confirm.getByRole("button", { name: "Reset" }).click();

  for (const page of [alice, bob]) {
    await expect(messages(page).getByText(/^bob reset Planner ownership: alice's app \(ownership generation 1\)/)).toBeVisible({ timeout: 20_000 });
  }
  // Alice's turn had begun (the model never answers here): the reset interrupted it, it is shown so and never run
  // again, so nobody takes the Planner until someone asks again. Bob does: his app runs it, generation 2.
  for (const page of [alice, bob]) {
    await expect(messages(page).getByText(/^Interrupted: this turn ended before the Planner answered/)).toBeVisible({ timeout: 20_000 });
    await expect(planner(page)).toContainText("Nobody runs the Planner here yet");
  }
  const bobsBox = bob.getByRole("textbox", { name: "Message" });
  await bobsBox.fill("@Planner pick it up, please");
  await bobsBox.press("Enter");
  await expect(planner(bob)).toContainText("Planner runs on this app", { timeout: 20_000 });
  await expect(planner(alice)).toContainText("Planner runs on bob's app", { timeout: 20_000 });
  await expect(planner(bob).getByText("Ownership generation").locator("xpath=following-sibling::dd[1]")).toHaveText("2");
});
