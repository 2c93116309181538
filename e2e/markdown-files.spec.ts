/**
 * Plans leave and enter the app as Markdown files (issue #24), in a real Chromium against a real core (host mode):
 * exported from the palette and from the document's menu as a download; imported through the file picker and by
 * dropping files on the window, each becoming a private plan titled from its first heading; a file that is not UTF-8
 * is refused in words and nothing of it is kept.
 */
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { createDocument, editorText, openApp, typeAtEnd } from "./support/app-page.js";
import { startCore, stopAll, tempDir } from "./support/processes.js";

test.afterAll(async () => {
  await stopAll();
});

async function runCommand(page: Page, label: string): Promise<void> {
  await page.keyboard.press("ControlOrMeta+k");
  const dialog = page.getByRole("dialog", { name: /command/i });
  await dialog.getByRole("combobox").fill(label);
  // The command matching every word comes first and is the active one.
  await expect(dialog.getByRole("option").first()).toContainText(label);
  await dialog.getByRole("combobox").press("Enter");
}

/** Drops files on the window as the system's file manager would. */
async function dropFiles(page: Page, files: { name: string; bytes: number[] }[]): Promise<void> {
  const data = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const file of list) transfer.items.add(new File([new Uint8Array(file.bytes)], file.name, { type: "text/markdown" }));
    return transfer;
  }, files);
  for (const type of ["dragenter", "dragover", "drop"]) await page.dispatchEvent("main", type, { dataTransfer: data });
}

test("export from the palette and the document menu, import by picker and by drop; a file that is not UTF-8 is refused", async ({ browser }) => {
  const core = await startCore(tempDir("markdown-files"));
  const page = await openApp(browser, core.ready.url);
  await createDocument(page, "Launch plan");
  await typeAtEnd(page, "- ship it");
  await expect.poll(() => editorText(page)).toBe("- ship it");

  const fromPalette = page.waitForEvent("download");
  await runCommand(page, "Export as Markdown file");
  const download = await fromPalette;
  expect(download.suggestedFilename()).toBe("Launch plan.md");
  expect(readFileSync((await download.path())!, "utf8")).toBe("# Launch plan\n\n- ship it");

  const list = page.getByRole("grid", { name: "Documents" });
  await list.getByRole("button", { name: "More actions for Launch plan" }).click();
  const fromMenu = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "Export as Markdown" }).click();
  expect((await fromMenu).suggestedFilename()).toBe("Launch plan.md");

  // The picker: a file with a setext heading becomes a private plan named by it, and opens.
  const chooser = page.waitForEvent("filechooser");
  await runCommand(page, "Import Markdown files…");
  await (await chooser).setFiles({ name: "notes.md", mimeType: "text/markdown", buffer: Buffer.from("Retro notes\n===========\n\nWhat went well.\n") });
  await expect(page.getByRole("textbox", { name: "Document title" })).toHaveValue("Retro notes");
  await expect.poll(() => editorText(page)).toBe("Retro notes\n===========\n\nWhat went well.\n");
  await expect(list.getByRole("button", { name: /^Retro notes/ })).toContainText("Private");

  // A drop: the good file is imported, the one that is not UTF-8 is refused by name, and only one plan more exists.
  await dropFiles(page, [
    { name: "dropped.md", bytes: [...Buffer.from("# Dropped plan\n\nbody\n")] },
    { name: "latin1.md", bytes: [0x43, 0x61, 0x66, 0xe9] },
  ]);
  await expect(page.getByRole("textbox", { name: "Document title" })).toHaveValue("Dropped plan");
  await expect(page.getByText("“latin1.md” is not UTF-8 text, so it was not imported.", { exact: false })).toBeVisible();
  await expect(list.getByRole("row")).toHaveCount(3);
});
