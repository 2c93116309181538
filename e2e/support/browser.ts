/**
 * Finds a Chromium for the e2e suite without downloading one: CHOPIN_CHROMIUM if set, else a system Chromium or
 * Chrome, else undefined so Playwright uses its own browser (`npx playwright install chromium` on a person's machine).
 */
import { existsSync } from "node:fs";

const CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
];

export function chromiumExecutable(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CHOPIN_CHROMIUM) return env.CHOPIN_CHROMIUM;
  return CANDIDATES.find((path) => existsSync(path));
}

/** Flags for a closed network: without the background-networking ones Chromium keeps dialling Google's hosts. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];
