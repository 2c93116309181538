/**
 * Reflow (WCAG 1.4.10) at 200% zoom of a laptop screen (640x400 CSS px) and at 320 CSS px wide: the document list,
 * the editor's text and the side panels stay reachable by scrolling the page, and nothing covers them. Checked with
 * real geometry: only the page is scrolled (what a person can do; Playwright's own scrolling would also move boxes
 * that clip with overflow: hidden), then the point clicked must hit the element itself (elementFromPoint).
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import { createDocument, editor, editorText, openApp, setDisplayName, typeAtEnd } from "./support/app-page.js";
import { startCore, stopAll, tempDir } from "./support/processes.js";

const TITLES = ["Zoom plan A", "Zoom plan B", "Zoom plan C"];
/** Five lines of body text (15.5px x 1.65): the least a usable editor shows. */
const MIN_EDITOR_PX = 120;
let url: string;

test.beforeAll(async ({ browser }) => {
  const core = await startCore(tempDir("narrow-layout"));
  url = core.ready.url;
  const page = await openApp(browser, url);
  for (const title of TITLES) {
    await createDocument(page, title);
    await paste(page, `# ${title}\n\n` + Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of ${title}.`).join("\n") + "\n\n## End\n\nThe last line.");
    await expect.poll(async () => (await editorText(page)).endsWith("The last line.")).toBe(true);
  }
  await page.context().close();
});

test.afterAll(async () => {
  await stopAll();
});

/** Pastes `text` into the editor as the clipboard would (CodeMirror's own paste handling). */
async function paste(page: Page, text: string): Promise<void> {
  await page.evaluate((value) => {
    const data = new DataTransfer();
    data.setData("text/plain", value);
    document.querySelector(".cm-content")!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Scrolls the page (the window only, never an inner box) until as much of the element as fits is in view, and
 * returns the part of its box that is inside the window.
 */
async function revealByPageScroll(target: Locator): Promise<Box> {
  return target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.height > innerHeight) window.scrollBy(0, r.top);
    else if (r.bottom > innerHeight) window.scrollBy(0, r.bottom - innerHeight);
    const s = el.getBoundingClientRect();
    const top = Math.max(s.top, 0);
    const bottom = Math.min(s.bottom, innerHeight);
    const left = Math.max(s.left, 0);
    const right = Math.min(s.right, innerWidth);
    return { x: left, y: top, width: Math.max(right - left, 0), height: Math.max(bottom - top, 0) };
  });
}

/** Whether a click at (x, y) lands on the element (or inside it), not on something drawn over it or beside it. */
async function hits(target: Locator, x: number, y: number): Promise<boolean> {
  return target.evaluate((el, [px, py]) => {
    const at = document.elementFromPoint(px, py);
    return at !== null && el.contains(at);
  }, [x, y] as const);
}

async function openAt(browser: import("@playwright/test").Browser, width: number, height: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.getByRole("button", { name: "New document" })).toBeVisible();
  await expect(page.getByRole("grid", { name: "Documents" }).getByRole("row")).toHaveCount(TITLES.length);
  return page;
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    clientWidth: document.scrollingElement!.clientWidth,
  }));
  expect(scrollWidth, "the page scrolls sideways").toBeLessThanOrEqual(clientWidth);
}

async function setPanel(page: Page, name: "Outline" | "Version history", open: boolean): Promise<void> {
  const button = page.getByRole("button", { name, exact: name === "Outline" }).or(page.getByRole("button", { name: /^Version history/ })).first();
  if ((await button.getAttribute("aria-pressed")) !== String(open)) await button.click();
  await expect(button).toHaveAttribute("aria-pressed", String(open));
}

for (const [width, height] of [
  [640, 400],
  [320, 480],
] as const) {
  test.describe(`${width}x${height}`, () => {
    test("a document row is on screen and a click on it opens the document", async ({ browser }) => {
      const page = await openAt(browser, width, height);
      const row = page.getByRole("grid", { name: "Documents" }).getByRole("row").first();
      const title = (await row.locator(".doc-title").textContent())!;
      const open = row.locator(".doc-open");
      const box = await revealByPageScroll(open);
      expect(box.height, `the row "${title}" has no visible height`).toBeGreaterThan(20);
      const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
      expect(await hits(open, x, y), `a click on the row "${title}" lands on something else`).toBe(true);
      await page.mouse.click(x, y);
      await expect(page.getByRole("textbox", { name: "Document title" })).toHaveValue(title);
      await noSidewaysScroll(page);
      await page.context().close();
    });

    test("with Outline and Version history open the editor can be clicked and typed into, and the versions seen", async ({ browser }) => {
      const page = await openAt(browser, width, height);
      const title = TITLES[1];
      const row = page.getByRole("grid", { name: "Documents" }).getByRole("row").filter({ hasText: title });
      await row.locator(".doc-open").click();
      await expect(page.getByRole("textbox", { name: "Document title" })).toHaveValue(title);
      await setPanel(page, "Outline", true);
      await setPanel(page, "Version history", true);

      // The editor keeps a usable height, is not covered, and takes a click and typing.
      const body = page.locator(".cm-editor");
      const ebox = await revealByPageScroll(body);
      expect(ebox.height, "the editor is squeezed").toBeGreaterThanOrEqual(MIN_EDITOR_PX);
      const [x, y] = [ebox.x + ebox.width / 2, ebox.y + ebox.height / 2];
      expect(await hits(body, x, y), "something covers the editor").toBe(true);
      await page.mouse.click(x, y);
      await expect(editor(page)).toBeFocused();
      await page.keyboard.press("ControlOrMeta+End");
      await page.keyboard.type(" Typed at 200%.", { delay: 5 });
      await expect.poll(() => editorText(page)).toContain("The last line. Typed at 200%.");

      // The history panel shows its versions, uncovered.
      const version = page.locator(".version-item").first();
      await expect(version).toBeAttached();
      const vbox = await revealByPageScroll(version);
      expect(vbox.height, "no version is visible in the history panel").toBeGreaterThan(20);
      expect(await hits(version, vbox.x + vbox.width / 2, vbox.y + vbox.height / 2), "the first version is covered").toBe(true);
      await noSidewaysScroll(page);

      // Closing the panels leaves text in sight, not the editor's blank bottom padding.
      await setPanel(page, "Outline", false);
      await setPanel(page, "Version history", false);
      const after = await revealByPageScroll(body);
      expect(after.height).toBeGreaterThanOrEqual(MIN_EDITOR_PX);
      const linesInSight = await body.evaluate((el, visible) => {
        const scroller = el.querySelector(".cm-scroller")!.getBoundingClientRect();
        const top = Math.max(scroller.top, visible.y);
        const bottom = Math.min(scroller.bottom, visible.y + visible.height);
        return [...el.querySelectorAll(".cm-line")].filter((line) => {
          const r = line.getBoundingClientRect();
          return (line.textContent ?? "").trim() !== "" && r.top >= top && r.bottom <= bottom;
        }).length;
      }, after);
      expect(linesInSight, "the editor shows no text after the panels close").toBeGreaterThanOrEqual(3);
      await page.context().close();
    });
  });
}

test("the status bar fits a narrow window while it shows a sync error: the save state and your name stay on screen", async ({ browser }) => {
  // A relay nobody answers: the status bar says offline and why, the longest it gets.
  const core = await startCore(tempDir("narrow-status"), ["--relay", "ws://127.0.0.1:9", "--relay-token", "t"]);
  const width = 760;
  const context = await browser.newContext({ viewport: { width, height: 600 } });
  const page = await context.newPage();
  await page.goto(core.ready.url);
  await setDisplayName(page, "Alexandra Example-Longname");
  // Changes waiting for the relay make the words longer still.
  await createDocument(page, "Waiting plan");
  await typeAtEnd(page, "offline words", 5);
  const sync = page.getByRole("status", { name: "Sync status" });
  await expect(sync).toContainText("waiting");
  await expect(sync.locator(".status-detail")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  for (const item of [page.getByRole("status", { name: "Save status" }), page.getByTitle("Your name as others see it")]) {
    if ((await item.count()) === 0) continue;
    const box = (await item.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
  }
  await context.close();
});
