/**
 * The Planner's provider chosen in Settings, end to end (issue #26): a host-mode core started with no provider and no
 * GitHub sign-in; the person picks "OpenAI-compatible" in Settings, types our fake server's address, model and key,
 * and saves; a message to @Planner in a private plan is then answered by that provider. Turned off in Settings, the
 * panel says the Planner is off here instead of offering it.
 */
import { expect, test } from "@playwright/test";
import { createDocument, openApp } from "./support/app-page.js";
import { startPlannerModel, type PlannerModel } from "./support/planner-model.js";
import { startCore, stopAll, tempDir } from "./support/processes.js";

let model: PlannerModel | undefined;
test.afterAll(async () => {
  await stopAll();
  await model?.fake.close();
});

test("a provider saved in Settings answers the Planner; switched off, the Planner is not offered", async ({ browser }) => {
  model = await startPlannerModel({ text: "Hello from the provider you chose." });
  const core = await startCore(tempDir("planner-settings"));
  const page = await openApp(browser, core.ready.url);

  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  const planner = dialog.getByRole("form", { name: "Planner" });
  await planner.getByLabel("Model provider").selectOption("openai");
  await planner.getByLabel("Address").fill(model.fake.url);
  await planner.getByLabel("Model", { exact: true }).fill(model.fake.models[0]!);
  await planner.getByLabel("API key").fill(model.fake.apiKey);
  await planner.getByRole("button", { name: "Save Planner settings" }).click();
  await expect(planner.getByRole("status")).toHaveText("Planner settings saved.");
  await expect(planner.getByLabel("API key")).toHaveValue("");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await createDocument(page, "Trip");
  await page.getByRole("button", { name: "Conversation" }).click();
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("@Planner where do we start?");
  await box.press("Enter");
  const log = page.getByRole("log", { name: "Messages" });
  await expect(log.getByText("Hello from the provider you chose.")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("status", { name: "Planner" })).toContainText("Planner runs on this app");
  expect(model.fake.requests.some((r) => r.headers.authorization === `Bearer ${model!.fake.apiKey}`)).toBe(true);

  await page.getByRole("button", { name: "Settings" }).click();
  await planner.getByLabel("Run the Planner on this app").uncheck();
  await planner.getByRole("button", { name: "Save Planner settings" }).click();
  await expect(planner.getByRole("status")).toHaveText("Planner settings saved.");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status", { name: "Planner" })).toContainText("The Planner is off on this app: turn it on in Settings to ask it here.");
  await expect(page.getByRole("button", { name: "To Planner" })).toBeDisabled();
});
