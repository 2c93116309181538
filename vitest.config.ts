/** Unit tests sit beside the code (foo.test.ts); process-level and browser tests live in e2e/ and run under Playwright. */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["{main,preload,renderer,sync-relay,shared,scripts,test-support}/**/*.test.{ts,tsx}"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
