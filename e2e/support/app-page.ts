/** What a person does in the app, expressed once for every e2e test: open, create, open a document, type, read. */
import { expect, type Browser, type Page } from "@playwright/test";
import { DEFAULT_DOCUMENT_TITLE } from "../../shared/limits.js";

export async function openApp(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.getByRole("button", { name: "New document" })).toBeVisible();
  return page;
}

export function editor(page: Page) {
  return page.getByRole("textbox", { name: "Document body" });
}

export async function createDocument(page: Page, title: string): Promise<void> {
  await page.getByRole("button", { name: "New document" }).click();
  const titleBox = page.getByRole("textbox", { name: "Document title" });
  // The new plan's title takes the focus once it is open. Until then the title field on screen may still be the
  // previous plan's, and filling it would rename that one (seen in CI: a shared plan renamed by a teammate's New).
  await expect(titleBox).toBeFocused();
  await expect(titleBox).toHaveValue(DEFAULT_DOCUMENT_TITLE);
  await titleBox.fill(title);
  await titleBox.press("Enter");
  await expect(editor(page)).toBeVisible();
}

export async function openDocument(page: Page, title: string): Promise<void> {
  const nav = page.getByRole("navigation");
  await expect(nav.getByText(title, { exact: true })).toBeVisible({ timeout: 30_000 });
  await nav.getByText(title, { exact: true }).click();
  await expect(editor(page)).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Document title" })).toHaveValue(title);
}

/** Appends text at the end of the document, as a person typing. */
export async function typeAtEnd(page: Page, text: string, delay = 15): Promise<void> {
  await editor(page).click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.type(text, { delay });
}

export async function editorText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const content = document.querySelector(".cm-content");
    if (!content) return "";
    // Widgets (remote carets with name labels, checkboxes) are not document text.
    return [...content.querySelectorAll(".cm-line")]
      .map((line) => {
        const copy = line.cloneNode(true) as HTMLElement;
        copy.querySelectorAll('[contenteditable="false"], .cm-widgetBuffer, [aria-hidden="true"]').forEach((w) => w.remove());
        return copy.textContent ?? "";
      })
      .join("\n");
  });
}

export async function setDisplayName(page: Page, name: string): Promise<void> {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Display name").fill(name);
  await dialog.getByRole("button", { name: "Save settings" }).click();
  await expect(dialog.getByText("Settings saved.")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
}
