/**
 * Keystroke suite: keydown -> DOM updated and keydown -> after paint, in Debian Chromium, for plain CodeMirror, for
 * CodeMirror bound to Automerge by the stock binding, and for the app's plan editor (all bound to a local in-memory
 * repo), 100 KB Markdown, caret mid-document, keys 30 ms apart. Every mode comes from one Vite build of
 * bench/keystroke/page and runs in the same browser, one after the other.
 */
import { existsSync } from "node:fs";
import type { Page } from "playwright-core";
import { buildBenchPage, serveBenchPage } from "../keystroke/build-page.js";
import { launchChromium, CHROMIUM_PATH } from "../lib/chromium.js";
import { summarize } from "../lib/stats.js";
import { sleepUntil } from "../lib/wait.js";
import { notAvailable, type Row, type Suite } from "../lib/report.js";

const KEY_INTERVAL_MS = 30;
const WARMUP_KEYS = 20;
const KEYS = "abcdefghij klmnopqrst uvwxyz ";
const MODES = [
  { mode: "plain", name: "plain CodeMirror" },
  { mode: "automerge", name: "+ Automerge (local repo)" },
  { mode: "chopin", name: "Chopin plan editor (replica in a worker)" },
] as const;

async function typeKeys(page: Page, count: number): Promise<void> {
  const start = performance.now();
  for (let k = 0; k < count; k++) {
    await sleepUntil(start + k * KEY_INTERVAL_MS);
    await page.keyboard.press(KEYS[k % KEYS.length] === " " ? "Space" : KEYS[k % KEYS.length]);
  }
}

export const keystrokeSuite: Suite = async (ctx) => {
  const keys = ctx.quick ? 150 : 900;
  if (!existsSync(CHROMIUM_PATH)) {
    return { suite: "keystroke", tables: [{ title: "keystroke", rows: MODES.map((m) => notAvailable(m.name, `${CHROMIUM_PATH} missing`)) }], notes: [] };
  }
  const b0 = performance.now();
  await buildBenchPage();
  ctx.log(`bench page ready (Vite build, once per run): ${((performance.now() - b0) / 1000).toFixed(1)} s`);
  const server = await serveBenchPage();
  const browser = await launchChromium();
  const rows: Row[] = [];
  const checks: string[] = [];
  try {
    for (const { mode, name } of MODES) {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(`${server.url}index.html?mode=${mode}`);
      await page.evaluate(() => window.bench.ready);
      const len0 = await page.evaluate(() => window.bench.editorLength());
      ctx.log(`${name}: ${WARMUP_KEYS} warm-up + ${keys} keys, ${KEY_INTERVAL_MS} ms apart`);
      await typeKeys(page, WARMUP_KEYS);
      await page.evaluate(() => window.bench.reset());
      await typeKeys(page, keys);
      // The last key's "after paint" sample lands one frame later: wait for it rather than sleeping.
      await page.waitForFunction((n) => window.bench.results().paint.length >= n, keys, { timeout: 10_000 });
      const r = await page.evaluate(() => window.bench.results());
      const len1 = await page.evaluate(() => window.bench.editorLength());
      const amLen = await page.evaluate(() => window.bench.automergeLength());
      if (errors.length > 0) throw new Error(`${name}: page errors: ${errors.join("; ")}`);
      if (len1 - len0 !== keys + WARMUP_KEYS) throw new Error(`${name}: editor grew by ${len1 - len0}, expected ${keys + WARMUP_KEYS}`);
      if (mode !== "plain" && amLen !== len1) throw new Error(`automerge text length ${amLen} != editor length ${len1}`);
      checks.push(`${name}: ${len1 - len0} chars inserted${amLen !== null ? `, Automerge doc agrees (${amLen})` : ""}, ${r.missedDom} keys without a DOM mutation`);
      const input = summarize(r.input);
      const dom = summarize(r.dom);
      const paint = summarize(r.paint);
      rows.push({
        name,
        metrics: { keys: r.paint.length, "input event p50 ms": input.p50, "input event p95 ms": input.p95, "DOM p50 ms": dom.p50, "DOM p95 ms": dom.p95, "paint p50 ms": paint.p50, "paint p95 ms": paint.p95 },
      });
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const [plain, ...bound] = rows;
  const ratios = (row: Row): Row => {
    const ratio = (k: string) => (row.metrics[k] as number) / (plain.metrics[k] as number);
    return { name: `${row.name} / plain`, metrics: { "DOM p50 x": ratio("DOM p50 ms"), "DOM p95 x": ratio("DOM p95 ms"), "paint p50 x": ratio("paint p50 ms"), "paint p95 x": ratio("paint p95 ms") } };
  };
  return {
    suite: "keystroke",
    tables: [
      { title: `keystroke latency, 100 KB Markdown, caret mid-document, keys ${KEY_INTERVAL_MS} ms apart (Chromium headless)`, rows },
      { title: "against plain CodeMirror (same run)", rows: bound.map(ratios) },
    ],
    notes: [
      "DOM = keydown (capture listener) to the first MutationObserver record on the editor; paint = keydown to requestAnimationFrame + setTimeout 0",
      "input event = keydown to the browser's input event: its own contenteditable insertion, before CodeMirror (or the binding) sees the key; DOM minus this is the editor's share",
      "the plan editor types printable keys at keydown (renderer/src/editor/keydown-typing.ts), so it has no input event and its DOM time skips the browser's keydown -> text round trip",
      "waiting for the next frame dominates 'paint': compare modes as a ratio",
      ...checks,
    ],
  };
};
