/**
 * Edits typed while the app core is down are never lost (UX audit, s6b/s6c): the core is killed with a document open,
 * the person keeps typing, the core comes back on the same UI port with a new per-launch secret. The old tab is
 * refused and says Chopin was restarted and that the edits were kept; a new tab of the same browser (same origin
 * storage) opened with the new link restores them, the core saves them, and they survive another restart of the
 * core seen from a browser that never kept anything.
 */
import { expect, test, type Page } from "@playwright/test";
import { createDocument, editor, openDocument, typeAtEnd } from "./support/app-page.js";
import { startCore, stopAll, tempDir, type CoreReady, type Started } from "./support/processes.js";
import { freePort } from "./support/tcp-proxy.js";

test.afterAll(async () => {
  await stopAll();
});

const TITLE = "Outbox plan";
const BEFORE = "Saved before the stop.";
const WHILE_DOWN = " Typed while core down.";

/** Outbox entries (replica/outbox-store.ts) in the page origin's storage. */
const keptEntries = (page: Page) =>
  page.evaluate(() => Object.keys(window.localStorage).filter((key) => key.startsWith("chopin.outbox.v1:")).length);

async function startCoreOn(dataDir: string, uiPort: number): Promise<Started<CoreReady>> {
  const core = await startCore(dataDir, ["--ui-port", String(uiPort)]);
  // The host falls back to any port when the asked one is taken; this test is about the same origin.
  expect(core.ready.port).toBe(uiPort);
  return core;
}

test("text typed while the core is down is kept, restored through the new link, saved, and survives a restart", async ({ browser }) => {
  const dataDir = tempDir("outbox");
  const uiPort = await freePort();
  const first = await startCoreOn(dataDir, uiPort);

  const context = await browser.newContext();
  const oldTab = await context.newPage();
  await oldTab.goto(first.ready.url);
  await createDocument(oldTab, TITLE);
  await typeAtEnd(oldTab, BEFORE);
  const saveStatus = (page: Page) => page.getByRole("status", { name: "Save status" });
  await expect(saveStatus(oldTab)).toHaveText("Saved");

  await first.stop("SIGKILL");
  await expect(oldTab.getByText("Lost the connection to Chopin — reconnecting…")).toBeVisible();
  await typeAtEnd(oldTab, WHILE_DOWN);
  await expect(editor(oldTab)).toContainText(BEFORE + WHILE_DOWN);
  await expect(saveStatus(oldTab)).not.toHaveText("Saved");
  // Kept in the origin's storage while the core cannot confirm it.
  await expect.poll(() => keptEntries(oldTab)).toBe(1);

  const second = await startCoreOn(dataDir, uiPort);
  expect(second.ready.secret).not.toBe(first.ready.secret);
  // The old tab's secret was for the launch before: it says what happened and that the edits are waiting.
  await expect(oldTab.getByRole("heading", { name: "Chopin was restarted" })).toBeVisible({ timeout: 30_000 });
  await expect(oldTab.getByText(`Your unsaved edits to “${TITLE}” were kept in this browser.`, { exact: false })).toBeVisible();
  await expect(oldTab.getByText("could not start")).toHaveCount(0);

  // The new link, in the same browser: same origin, same storage.
  const newTab = await context.newPage();
  await newTab.goto(second.ready.url);
  await openDocument(newTab, TITLE);
  await expect(editor(newTab)).toContainText(BEFORE + WHILE_DOWN);
  await expect(saveStatus(newTab)).toHaveText("Saved");
  // Cleared only after the core confirmed them on disk.
  await expect.poll(() => keptEntries(newTab)).toBe(0);

  // Survives another hard stop, seen from a browser that kept nothing: the core has it on disk.
  await second.stop("SIGKILL");
  const third = await startCoreOn(dataDir, uiPort);
  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto(third.ready.url);
  expect(await keptEntries(fresh)).toBe(0);
  await openDocument(fresh, TITLE);
  await expect(editor(fresh)).toContainText(BEFORE + WHILE_DOWN);
});
