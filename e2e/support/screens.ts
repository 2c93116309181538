/**
 * A screen shot in the light and the dark theme, each attached to the test's report and checked for legibility
 * (every text against its background, legibility.ts): the agent chat specs take their screenshots through this, so
 * every screen is seen in both themes and none is attached unchecked.
 */
import { expect, test, type Page } from "@playwright/test";
import { illegibleTexts } from "./legibility.js";

export async function shotInBothThemes(page: Page, screen: string): Promise<void> {
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    // Transitions settle first: a colour caught mid-fade would be judged (and shot) as it never stays.
    await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"));
    await test.info().attach(`${screen} (${theme})`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
    expect(await illegibleTexts(page), `${screen} in the ${theme} theme`).toEqual([]);
  }
}
