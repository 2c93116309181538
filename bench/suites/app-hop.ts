/**
 * App hop suite: what a teammate sees. One real relay process, two host-mode app cores and two Chromium pages on the
 * same document; a key typed in page A (Playwright keyboard, paced or typing speed) is timed until page B's editor
 * DOM shows it. The path is window A -> core A -> relay -> core B -> window B: two local hops (the window fast link over
 * the host bridge, shared/fast-link/) around the relay fast path. Both pages run in one browser
 * on one machine, so timestamps share an epoch (performance.timeOrigin + performance.now()).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { build } from "vite";
import type { Browser, Page } from "playwright-core";
import { addRelayUser, startRelayProcess } from "../../e2e/support/relay.js";
import { freePort } from "../../e2e/support/tcp-proxy.js";
import { startCore, stopAll, tempDir } from "../../e2e/support/processes.js";
import { CHROMIUM_PATH, launchChromium } from "../lib/chromium.js";
import { PROJECT_DIR } from "../lib/child.js";
import { notAvailable, type Row, type Suite } from "../lib/report.js";
import { summarize } from "../lib/stats.js";

const PACED_INTERVAL_MS = 300;
const TYPING_INTERVAL_MS = 60;
const WARMUP_KEYS = 5;
const SEEN_TIMEOUT_MS = 15_000;
const TITLE = "Hop plan";

async function openPage(browser: Browser, url: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url);
  await page.getByRole("button", { name: "New document" }).waitFor();
  return page;
}

const editor = (page: Page) => page.getByRole("textbox", { name: "Document body" });

/** The typed character: counted in page B, so presence labels and other widgets in the editor DOM never count. */
const KEY = "¤";

/**
 * Installs in page B a recorder of when the editor first shows each count of typed keys. A string, not a function: tsx
 * wraps named functions in a helper that does not exist in the page.
 */
const RECORD_LENGTHS = `(() => {
  const KEY = ${JSON.stringify(KEY)};
  const content = document.querySelector(".cm-content");
  const seen = {};
  new MutationObserver(() => {
    const now = performance.timeOrigin + performance.now();
    const n = (content.textContent || "").split(KEY).length - 1;
    if (seen[n] === undefined) seen[n] = now;
  }).observe(content, { childList: true, subtree: true, characterData: true });
  window.__hop = seen;
})()`;

async function recordLengths(page: Page): Promise<void> {
  await page.evaluate(RECORD_LENGTHS);
}

async function latencies(a: Page, b: Page, keys: number, intervalMs: number): Promise<number[]> {
  await editor(a).click();
  await a.keyboard.press("ControlOrMeta+End");
  await recordLengths(b);
  const sent: Array<{ length: number; at: number }> = [];
  let length = await b.evaluate((key) => (document.querySelector(".cm-content")?.textContent ?? "").split(key).length - 1, KEY);
  for (let k = 0; k < keys + WARMUP_KEYS; k++) {
    const start = performance.now();
    const at = await a.evaluate(() => performance.timeOrigin + performance.now());
    await a.keyboard.type(KEY);
    length += 1;
    if (k >= WARMUP_KEYS) sent.push({ length, at });
    const wait = intervalMs - (performance.now() - start);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  const last = length;
  const deadline = performance.now() + SEEN_TIMEOUT_MS;
  while (!(await b.evaluate((n) => (window as unknown as { __hop: Record<number, number> }).__hop[n] !== undefined, last))) {
    if (performance.now() > deadline) throw new Error(`page B did not show all ${last} characters within ${SEEN_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const seen = await b.evaluate(() => (window as unknown as { __hop: Record<number, number> }).__hop);
  return sent.map(({ length: n, at }) => {
    // The first time B showed at least n characters.
    const times = Object.entries(seen)
      .filter(([len]) => Number(len) >= n)
      .map(([, t]) => t);
    return Math.min(...times) - at;
  });
}

export const appHopSuite: Suite = async (ctx) => {
  const keys = ctx.quick ? { paced: 20, typing: 40 } : { paced: 100, typing: 200 };
  const name = "app: page A key -> page B DOM (window, core, relay, core, window)";
  const rows: Row[] = [];
  if (!existsSync(CHROMIUM_PATH)) rows.push(notAvailable(name, `${CHROMIUM_PATH} missing`));
  else {
    ctx.log("building the UI (renderer/dist)");
    await build({ configFile: join(PROJECT_DIR, "renderer", "vite.config.ts"), logLevel: "warn" });
    const relayDir = tempDir("hop-relay");
    const relayPort = await freePort();
    const [tokenA, tokenB] = [await addRelayUser(relayDir, "alice"), await addRelayUser(relayDir, "bob")];
    await startRelayProcess(relayDir, relayPort);
    const relayArgs = (token: string) => ["--relay", `ws://127.0.0.1:${relayPort}`, "--relay-token", token];
    const [coreA, coreB] = await Promise.all([startCore(tempDir("hop-a"), relayArgs(tokenA)), startCore(tempDir("hop-b"), relayArgs(tokenB))]);
    const browser = await launchChromium();
    try {
      const a = await openPage(browser, coreA.ready.url);
      const b = await openPage(browser, coreB.ready.url);
      await a.getByRole("button", { name: "New document" }).click();
      const title = a.getByRole("textbox", { name: "Document title" });
      await title.fill(TITLE);
      await title.press("Enter");
      await editor(a).click();
      await a.keyboard.type("Start.");
      const link = b.getByRole("navigation").getByText(TITLE, { exact: true });
      await link.waitFor({ timeout: 30_000 });
      await link.click();
      await editor(b).getByText("Start.").waitFor({ timeout: 30_000 });
      ctx.log(`paced: ${keys.paced} keys every ${PACED_INTERVAL_MS} ms`);
      const paced = summarize(await latencies(a, b, keys.paced, PACED_INTERVAL_MS));
      ctx.log(`typing: ${keys.typing} keys every ${TYPING_INTERVAL_MS} ms`);
      const typing = summarize(await latencies(a, b, keys.typing, TYPING_INTERVAL_MS));
      rows.push({
        name,
        metrics: { "paced p50 ms": paced.p50, "paced p95 ms": paced.p95, "typing p50 ms": typing.p50, "typing p95 ms": typing.p95 },
      });
    } finally {
      await browser.close();
      await stopAll();
    }
  }
  return {
    suite: "app-hop",
    tables: [{ title: "a teammate's keystroke, end to end through the app (host mode, loopback relay)", rows }],
    notes: [
      `paced: one key every ${PACED_INTERVAL_MS} ms; typing: one key every ${TYPING_INTERVAL_MS} ms; ${WARMUP_KEYS} warm-up keys not counted`,
      "includes Playwright's key dispatch in page A and B's rendering up to the DOM mutation; both pages share one Chromium",
    ],
  };
};
