/**
 * The Planner's edit marked in the editor (issue #26): one host-mode core runs the Planner on our fake model server; a
 * person has the private plan open in two windows and asks the Planner in one. The model's edit_plan replaces a
 * paragraph and adds a section; both windows mark the new text as added by the Planner and show the replaced text
 * struck through where it was, what the person types meanwhile is not marked, the removed text is not in the plan,
 * and the marks are gone once PLANNER_CHANGE_MARK_SHOW_MS and PLANNER_CHANGE_MARK_FADE_MS are up.
 */
import { expect, test, type Page } from "@playwright/test";
import { PLANNER_CHANGE_MARK_FADE_MS, PLANNER_CHANGE_MARK_SHOW_MS } from "../renderer/src/limits.js";
import { messageText } from "../test-support/fake-openai/protocol.js";
import type { RecordedRequest } from "../test-support/fake-openai/types.js";
import { createDocument, editor, editorText, openApp, openDocument, typeAtEnd } from "./support/app-page.js";
import { startPlannerModel, type PlannerModel } from "./support/planner-model.js";
import { startCore, stopAll, tempDir } from "./support/processes.js";

let model: PlannerModel | undefined;
test.afterAll(async () => {
  await stopAll();
  await model?.fake.close();
});

const lastToolResult = (request: RecordedRequest) => JSON.parse(messageText(request.body.messages.filter((m) => m.role === "tool").at(-1))) as Record<string, any>;
const added = (page: Page) => editor(page).getByTitle("Added by the Planner");
const removed = (page: Page) => page.locator(".cm-editor").getByTitle("Removed by the Planner");

test("a Planner edit is marked in every window with the plan open, then the marks fade away", async ({ browser }) => {
  model = await startPlannerModel();
  const core = await startCore(tempDir("marks"), model.args, model.env);
  const asker = await openApp(browser, core.ready.url);
  await createDocument(asker, "Launch");
  await typeAtEnd(asker, "We ship in May.");
  await asker.keyboard.press("Enter");
  await asker.keyboard.press("Enter");
  await asker.keyboard.type("Ada leads.", { delay: 15 });
  const other = await openApp(browser, core.ready.url);
  await openDocument(other, "Launch");
  await expect(editor(other)).toContainText("Ada leads.", { timeout: 20_000 });

  model.fake.script(
    { toolCalls: [{ name: "read_plan", arguments: {} }] },
    (request) => {
      const read = lastToolResult(request);
      const [first, second] = read.blocks;
      const operations = [
        { op: "replace", block: { index: first.index, digest: first.digest }, markdown: "We ship in June." },
        { op: "insert", after: { index: second.index, digest: second.digest }, markdown: "## Risks\n\n- Late hardware" },
      ];
      return { toolCalls: [{ name: "edit_plan", arguments: { revision: read.revision, operations } }] };
    },
    { text: "Moved the date and added the risks." },
  );
  await asker.getByRole("button", { name: "Conversation" }).click();
  const box = asker.getByRole("textbox", { name: "Message" });
  await box.fill("@Planner we slipped a month; add the risks");
  await box.press("Enter");

  for (const page of [other, asker]) {
    await expect(added(page).filter({ hasText: "Late hardware" })).toBeVisible({ timeout: 60_000 });
    await expect(added(page).filter({ hasText: "June" })).toBeVisible();
    await expect(removed(page)).toContainText("May");
  }
  // The ghost is not the plan's text; what the person types now is theirs, not marked.
  expect(await editorText(other)).toBe("We ship in June.\n\nAda leads.\n\n## Risks\n\n- Late hardware\n");
  await typeAtEnd(other, "Also budget.");
  await expect(editor(other)).toContainText("Also budget.");
  await expect(added(other).filter({ hasText: "budget" })).toHaveCount(0);

  const gone = PLANNER_CHANGE_MARK_SHOW_MS + PLANNER_CHANGE_MARK_FADE_MS + 20_000;
  for (const page of [other, asker]) {
    await expect(page.locator(".cm-planner-mark")).toHaveCount(0, { timeout: gone });
  }
  await expect(editor(asker)).toContainText("Also budget.");
});
