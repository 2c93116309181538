/**
 * A `#` reference end to end (issue #26): one host-mode core whose Planner runs on our fake model. In a private plan's
 * conversation the person types `#sp`, picks "Spec" from the list with the keyboard, and asks the Planner; the model
 * reads the reference with read_reference and is given the Spec's text; the message shows its reference as a link,
 * which opens the Spec; once the Spec is edited the message says it changed since.
 */
import { expect, test } from "@playwright/test";
import { messageText } from "../test-support/fake-openai/protocol.js";
import type { RecordedRequest } from "../test-support/fake-openai/types.js";
import { createDocument, editor, openApp, openDocument, typeAtEnd } from "./support/app-page.js";
import { startPlannerModel, type PlannerModel } from "./support/planner-model.js";
import { startCore, stopAll, tempDir } from "./support/processes.js";

let model: PlannerModel | undefined;
test.afterAll(async () => {
  await stopAll();
  await model?.fake.close();
});

const lastToolResult = (request: RecordedRequest) => JSON.parse(messageText(request.body.messages.filter((m) => m.role === "tool").at(-1))) as Record<string, any>;

test("a document picked with # is read by the Planner, shown as a link, and said to have changed since", async ({ browser }) => {
  model = await startPlannerModel();
  const core = await startCore(tempDir("reference"), model.args, model.env);
  const page = await openApp(browser, core.ready.url);
  await createDocument(page, "Spec");
  await typeAtEnd(page, "Use Postgres for storage.");
  await createDocument(page, "Launch");
  await page.getByRole("button", { name: "Conversation" }).click();

  let read: Record<string, any> | null = null;
  model.fake.script(
    (request) => {
      const references = messageText(request.body.messages.filter((m) => m.role === "user").at(-1)).match(/document (\S+), revision/);
      return { toolCalls: [{ name: "read_reference", arguments: { documentId: references![1] } }] };
    },
    (request) => {
      read = lastToolResult(request);
      return { text: "The Spec says **Postgres**." };
    },
  );
  const box = page.getByRole("textbox", { name: "Message" });
  await box.click();
  await page.keyboard.type("@Planner which database? #sp");
  const options = page.getByRole("listbox", { name: "Documents to reference" });
  await expect(options.getByRole("option")).toHaveText(["#Spec"]);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("list", { name: "References" })).toContainText("#Spec");
  await expect(box).toHaveValue("@Planner which database? ");
  await page.keyboard.press("Enter");

  const log = page.getByRole("log", { name: "Messages" });
  await expect(log.locator("strong", { hasText: "Postgres" })).toBeVisible({ timeout: 60_000 });
  expect(read).toMatchObject({ ok: true, value: { title: "Spec", changedSince: false } });
  expect((read as unknown as { value: { markdown: string } }).value.markdown).toContain("Use Postgres for storage.");

  // The reference opens the Spec; edited, the message says it changed since.
  await log.getByRole("list", { name: "Referenced documents" }).getByRole("button", { name: "#Spec" }).click();
  await expect(page.getByRole("textbox", { name: "Document title" })).toHaveValue("Spec");
  await typeAtEnd(page, " And Redis.");
  await expect(editor(page)).toContainText("And Redis.");
  await openDocument(page, "Launch");
  // Whichever side panel the plan opens with, the conversation is brought up (the toggle says whether it is).
  const conversation = page.getByRole("button", { name: "Conversation" });
  await expect(async () => {
    if ((await conversation.getAttribute("aria-pressed")) !== "true") await conversation.click();
    await expect(log).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(log.getByText("(changed since)")).toBeVisible({ timeout: 30_000 });
});
