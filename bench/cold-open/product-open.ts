/**
 * The PRODUCT cold open, measured end to end: a real host-mode core (main/cli.ts, fresh process) on a copy of a data
 * folder prepared by product-setup.ts, the built UI (renderer/dist) in Chromium, a click on the document in the
 * sidebar, then, on the page's own clock: click -> the snapshot's text is in the editor and the frame showing it
 * is being rendered (first paint), click -> the editor is editable (contenteditable=true) showing the document, and
 * click -> a key typed the moment it was editable is saved (the save status says "Saved": the window's replica has
 * the document, the key is in it, and the core confirmed it on disk).
 * What must stay true: every core we start is stopped by its own pid, even when a measurement throws.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { PROJECT_DIR } from "../lib/child.js";
import { withTimeout } from "../lib/wait.js";

export const RENDERER_INDEX = join(PROJECT_DIR, "renderer", "dist", "index.html");

export interface ProductOpen {
  /** click -> snapshot text in the editor and the frame showing it started (its rAF callbacks run). */
  firstPaintMs: number;
  /** Whether that first paint was read-only (the snapshot) rather than the already-editable document. */
  paintedReadOnly: boolean;
  /** click -> editor editable with the document's text. */
  editableMs: number;
  /** click -> a key typed at once after editable is on disk ("Saved"). */
  keySavedMs: number;
  /** core process start -> CHOPIN_READY. */
  coreStartMs: number;
  /** click -> each of the renderer's user-timing marks of the open (chopin:*), when present. */
  steps: Record<string, number>;
}

interface Core {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function startCore(dataDir: string): Promise<{ core: Core; startMs: number }> {
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "main/cli.ts", "--headless", "--no-open", "--data-dir", dataDir, "--ui-port", "0", "--mcp-port", "0"],
    { cwd: PROJECT_DIR, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(killer);
  };
  try {
    const url = await withTimeout(
      new Promise<string>((resolve, reject) => {
        let buf = "";
        child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
          buf += chunk;
          const line = buf.split("\n").find((l) => l.startsWith("CHOPIN_READY "));
          if (line) resolve((JSON.parse(line.slice("CHOPIN_READY ".length)) as { url: string }).url);
        });
        void exited.then(() => reject(new Error(`the core exited before it was ready: ${stderr.slice(-1500)}`)));
      }),
      60_000,
      "the host-mode core to print CHOPIN_READY",
    );
    return { core: { url, child, stop }, startMs: performance.now() - t0 };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** One cold open: fresh copy of the data folder, fresh core process, fresh browser context. */
export async function measureProductOpen(
  browser: Browser,
  setupDir: string,
  runDir: string,
  title: string,
  probe: string,
): Promise<ProductOpen> {
  rmSync(runDir, { recursive: true, force: true });
  cpSync(setupDir, runDir, { recursive: true });
  const { core, startMs } = await startCore(runDir);
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  try {
    // tsx names inner functions through a `__name` helper that does not exist in the page.
    await context.addInitScript({ content: "globalThis.__name = (fn) => fn;" });
    const page = await context.newPage();
    await page.goto(core.url);
    const item = page.getByRole("navigation").getByText(title, { exact: true });
    await item.waitFor({ timeout: 60_000 });
    await page.evaluate(
      ({ title, probe }) => {
        const marks: { click: number; paint?: number; paintedReadOnly?: boolean; editable?: number } = { click: 0 };
        (window as unknown as { __coldOpen: Promise<typeof marks> }).__coldOpen = new Promise((resolve) => {
          // The frame that shows the mutation: its rAF callbacks run, then it is laid out and painted. (A message
          // posted from rAF is not a reliable "after paint" here: the app's own post-paint task may run first and
          // start the replica's long load.)
          const afterFrame = (done: () => void) => requestAnimationFrame(() => done());
          const check = () => {
            const content = document.querySelector(".cm-content");
            if (!content || !content.textContent?.includes(probe)) return;
            const editable = content.getAttribute("contenteditable") === "true";
            if (marks.paintedReadOnly === undefined) {
              marks.paintedReadOnly = !editable;
              afterFrame(() => {
                marks.paint = performance.now() - marks.click;
                if (marks.editable !== undefined) resolve(marks);
              });
            }
            if (editable && marks.editable === undefined) {
              marks.editable = performance.now() - marks.click;
              observer.disconnect();
              if (marks.paint !== undefined) resolve(marks);
            }
          };
          const observer = new MutationObserver(check);
          observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
          const target = [...document.querySelectorAll("nav *")].find(
            (el) => el.children.length === 0 && el.textContent === title,
          ) as HTMLElement | undefined;
          if (!target) throw new Error(`no sidebar item titled ${title}`);
          marks.click = performance.now();
          (window as unknown as { __coldOpenClick: number }).__coldOpenClick = marks.click;
          target.click();
        });
      },
      { title, probe },
    );
    const marks = await withTimeout(
      page.evaluate(() => (window as unknown as { __coldOpen: Promise<{ paint: number; editable: number; paintedReadOnly: boolean }> }).__coldOpen),
      120_000,
      "the document to become editable",
    );
    // A key typed as soon as the editor took input, then "Saved" on the page's clock.
    await page.locator(".cm-content").press("End");
    await page.keyboard.type("Z");
    const keySavedMs = await withTimeout(
      page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const click = (window as unknown as { __coldOpenClick: number }).__coldOpenClick;
            const saved = () => document.querySelector("[role=status][aria-label='Save status']")?.textContent === "Saved";
            const check = () => (saved() ? resolve(performance.now() - click) : requestAnimationFrame(check));
            check();
          }),
      ),
      120_000,
      "the key typed at once to be saved",
    );
    const steps = await page.evaluate(() => {
      const click = (window as unknown as { __coldOpenClick: number }).__coldOpenClick;
      return Object.fromEntries(
        performance
          .getEntriesByType("mark")
          .filter((m) => m.name.startsWith("chopin:"))
          .map((m) => [m.name.slice("chopin:".length), m.startTime - click]),
      );
    });
    return { firstPaintMs: marks.paint, paintedReadOnly: marks.paintedReadOnly, editableMs: marks.editable, keySavedMs, coreStartMs: startMs, steps };
  } finally {
    await context.close();
    await core.stop();
  }
}

export function rendererBuilt(): boolean {
  return existsSync(RENDERER_INDEX);
}
