/**
 * The app in the system's light and dark themes, and as the person chooses in Settings (issue #24), in a real Chromium
 * against a real core: each main screen (the empty window, a plan being written with its outline and history open,
 * Settings, the command palette) is screenshotted in both themes, and every piece of text on it is checked for
 * legibility: at least 4.5:1 contrast against what it sits on (3:1 for large text), as WCAG AA asks, and 3:1 for the
 * Markdown syntax the live preview shows quietly away from the caret (its formatting says the same). The screenshots
 * are attached to the report, for a person to look at.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { createDocument, openApp, typeAtEnd } from "./support/app-page.js";
import { startCore, stopAll, tempDir } from "./support/processes.js";
import { illegibleTexts } from "./support/legibility.js";

test.afterAll(async () => {
  await stopAll();
});

async function openIn(browser: Browser, url: string, colorScheme: "light" | "dark"): Promise<Page> {
  const context = await browser.newContext({ colorScheme, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.getByRole("button", { name: "New document" })).toBeVisible();
  return page;
}

async function check(page: Page, screen: string, theme: string): Promise<void> {
  // Colours ease from one theme to the other: judge them once they have arrived.
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"));
  await test.info().attach(`${screen} (${theme})`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
  expect(await illegibleTexts(page), `${screen} in the ${theme} theme`).toEqual([]);
}

for (const theme of ["light", "dark"] as const) {
  test(`every main screen is legible in the system's ${theme} theme`, async ({ browser }) => {
    const core = await startCore(tempDir(`themes-${theme}`));
    const page = await openIn(browser, core.ready.url, theme);
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    await check(page, "empty window", theme);

    await createDocument(page, "Launch plan");
    await typeAtEnd(page, "# Goals\n\n- [ ] ship *it*\n\n> a quote with `code`\n");
    await page.getByRole("button", { name: "Outline", exact: true }).click();
    await page.getByRole("button", { name: /^Version history/ }).click();
    await expect(page.getByRole("heading", { name: /history/i }).first()).toBeVisible();
    await check(page, "a plan with its outline and history", theme);

    await page.keyboard.press("ControlOrMeta+k");
    await expect(page.getByRole("dialog", { name: "Command palette" })).toBeVisible();
    await check(page, "command palette", theme);
    await page.keyboard.press("Escape");

    await page.keyboard.press("ControlOrMeta+k");
    await page.getByRole("combobox").fill("Open settings");
    await page.getByRole("combobox").press("Enter");
    await expect(page.getByRole("dialog", { name: "Settings" })).toBeVisible();
    await check(page, "settings", theme);
  });
}

test("the theme chosen in Settings wins over the system's, at once and in every window", async ({ browser }) => {
  const core = await startCore(tempDir("themes-choice"));
  const page = await openIn(browser, core.ready.url, "light");
  const other = await page.context().newPage();
  await other.goto(core.ready.url);
  await expect(other.locator("html")).toHaveAttribute("data-theme", "light");

  await page.keyboard.press("ControlOrMeta+k");
  await page.getByRole("combobox").fill("Open settings");
  await page.getByRole("combobox").press("Enter");
  const settings = page.getByRole("dialog", { name: "Settings" });
  await settings.getByRole("radio", { name: "Dark" }).check();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(other.locator("html")).toHaveAttribute("data-theme", "dark");
  await check(page, "settings, dark chosen over a light system", "dark");

  await settings.getByRole("radio", { name: "Same as the system" }).check();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
});
