/** e2e: real relay and app-core processes, Chromium pages against host mode. Tests wait on conditions, never sleeps. */
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumExecutable } from "./support/browser.js";

export default defineConfig({
  testDir: ".",
  testMatch: /.*\.spec\.ts$/,
  timeout: 120_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  outputDir: "../test-results",
  use: {
    headless: true,
    launchOptions: { executablePath: chromiumExecutable(), args: CHROMIUM_ARGS },
    trace: "off",
  },
});
