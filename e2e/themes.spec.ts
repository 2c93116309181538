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

test.afterAll(async () => {
  await stopAll();
});

interface Illegible {
  text: string;
  color: string;
  background: string;
  ratio: number;
}

/** Every visible text on the page whose contrast against its background is below WCAG AA. */
async function illegibleTexts(page: Page): Promise<Illegible[]> {
  return page.evaluate(() => {
    type Rgba = [number, number, number, number];
    const parse = (value: string): Rgba | null => {
      const m = /rgba?\(([^)]+)\)/.exec(value);
      if (!m) return null;
      const parts = m[1]!.split(/[\s,/]+/).filter(Boolean).map(Number);
      return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
    };
    const over = (top: Rgba, below: Rgba): Rgba => {
      const a = top[3] + below[3] * (1 - top[3]);
      if (a === 0) return [0, 0, 0, 0];
      const mix = (i: number) => (top[i]! * top[3] + below[i]! * below[3] * (1 - top[3])) / a;
      return [mix(0), mix(1), mix(2), a];
    };
    const luminance = ([r, g, b]: Rgba) => {
      const channel = (v: number) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    /** What an element's text sits on: its own and its ancestors' background colours, composited; null over an image. */
    const backgroundOf = (element: Element): Rgba | null => {
      const layers: Rgba[] = [];
      for (let node: Element | null = element; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.backgroundImage !== "none") return null;
        const color = parse(style.backgroundColor);
        if (color && color[3] > 0) {
          layers.push(color);
          if (color[3] === 1) break;
        }
      }
      let result: Rgba = [255, 255, 255, 1];
      for (const layer of layers.reverse()) result = over(layer, result);
      return result;
    };
    const inactive = (element: Element) => element.closest('[aria-disabled="true"], :disabled, [inert], .remote-caret') !== null;
    const found: Illegible[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? "";
      const element = node.parentElement;
      if (!text || !element || inactive(element)) continue;
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || style.visibility === "hidden" || element.closest("[hidden]")) continue;
      const color = parse(style.color);
      const background = backgroundOf(element);
      if (!color || !background) continue;
      const fg = over(color, background);
      const [lighter, darker] = [luminance(fg), luminance(background)].sort((a, b) => b - a) as [number, number];
      const ratio = (lighter + 0.05) / (darker + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const quietSyntax = element.closest(".cm-md-markup-dim, .cm-md-hr") !== null;
      if (ratio < (large || quietSyntax ? 3 : 4.5)) {
        found.push({ text: text.slice(0, 60), color: style.color, background: `rgb(${background.slice(0, 3).map(Math.round).join(", ")})`, ratio: Math.round(ratio * 100) / 100 });
      }
    }
    return found;
  });
}

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
