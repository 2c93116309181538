/**
 * Writing in a real Chromium against a real core (host mode): a plan named and written with the keyboard only
 * (Mod+N, the title, Enter, the body), and the body's size limit: a 1 MB paste is refused in words and leaves the
 * plan as it was (the page stays usable), and typing at the limit is refused the same way; a rich paste (HTML on
 * the clipboard) goes in as Markdown, links kept.
 */
import { expect, test, type Page } from "@playwright/test";
import { MAX_DOCUMENT_MARKDOWN_BYTES } from "../shared/limits.js";
import { editor, editorText, openApp } from "./support/app-page.js";
import { startCore, stopAll, tempDir } from "./support/processes.js";

test.afterAll(async () => {
  await stopAll();
});

/** Pastes `text` into the editor as the clipboard would (CodeMirror's own paste handling, "input.paste"). */
async function paste(page: Page, text: string, html?: string): Promise<void> {
  await page.evaluate(([value, rich]) => {
    const data = new DataTransfer();
    data.setData("text/plain", value);
    if (rich !== undefined) data.setData("text/html", rich);
    const event = new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true });
    document.querySelector(".cm-content")!.dispatchEvent(event);
  }, [text, html] as const);
}

test("keyboard only: Mod+N, a title, Enter, and the body typed next lands in the body", async ({ browser }) => {
  const core = await startCore(tempDir("writing-keys"));
  const page = await openApp(browser, core.ready.url);
  await page.locator("body").click();
  await page.keyboard.press("ControlOrMeta+n");
  const title = page.getByRole("textbox", { name: "Document title" });
  await expect(title).toBeFocused();
  await page.keyboard.type("Launch plan");
  await page.keyboard.press("Enter");
  await expect(editor(page)).toBeFocused();
  await page.keyboard.type("# Goals", { delay: 10 });
  await page.keyboard.press("Enter");
  await page.keyboard.type("Ship it", { delay: 10 });
  await expect.poll(() => editorText(page)).toBe("# Goals\nShip it");
  await expect(title).toHaveValue("Launch plan");
  await expect(page.getByRole("grid", { name: "Documents" }).getByRole("button", { name: /^Launch plan/ })).toBeVisible();
});

test("the body's size limit: a 1 MB paste and typing past the limit are refused in words; the plan is unchanged", async ({ browser }) => {
  const core = await startCore(tempDir("writing-limit"));
  const page = await openApp(browser, core.ready.url);
  await page.getByRole("button", { name: "New document" }).click();
  await page.getByRole("textbox", { name: "Document title" }).press("Enter");
  await expect(editor(page)).toBeFocused();
  await page.keyboard.type("# Plan", { delay: 10 });

  const refusal = page.locator(".editor-refusal");
  await expect(refusal).toHaveAttribute("role", "status");
  await expect(refusal).toHaveText("");
  await paste(page, "x".repeat(1024 * 1024));
  await expect(refusal).toHaveText("That paste would make this plan larger than 256 KiB, the most a plan can hold; nothing was pasted.");
  expect(await editorText(page)).toBe("# Plan");
  // The page is still usable, and the next edit that goes through clears the sentence.
  await page.keyboard.type("!", { delay: 10 });
  await expect.poll(() => editorText(page)).toBe("# Plan!");
  await expect(refusal).toHaveText("");

  // Up to one byte short of the limit, in lines of 1 KiB: accepted.
  const room = MAX_DOCUMENT_MARKDOWN_BYTES - "# Plan!".length - 1;
  const line = "a".repeat(1023) + "\n";
  await paste(page, line.repeat(Math.floor(room / line.length)) + "a".repeat(room % line.length));
  await expect(refusal).toHaveText("");
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.type("b", { delay: 10 });
  await expect.poll(async () => (await editorText(page)).endsWith("ab")).toBe(true);
  await page.keyboard.type("c", { delay: 10 });
  await expect(refusal).toHaveText("This plan is at its size limit of 256 KiB; what you typed was not added.");
  await expect.poll(async () => (await editorText(page)).endsWith("ab")).toBe(true);
  expect(await editorText(page)).not.toContain("c");
});

test("a rich paste goes in as Markdown: the link keeps its address, bold stays bold", async ({ browser }) => {
  const core = await startCore(tempDir("writing-rich-paste"));
  const page = await openApp(browser, core.ready.url);
  await page.getByRole("button", { name: "New document" }).click();
  await page.getByRole("textbox", { name: "Document title" }).press("Enter");
  await expect(editor(page)).toBeFocused();
  await page.keyboard.type("See ", { delay: 10 });
  // What a browser puts on the clipboard when a person copies part of a web page.
  const html = '<meta charset="utf-8"><span style="color: rgb(0, 0, 0)"><a href="https://example.com/spec">the spec</a> and <b>this</b></span>';
  await paste(page, "the spec and this", html);
  await expect.poll(() => editorText(page)).toBe("See [the spec](https://example.com/spec) and **this**");
});
