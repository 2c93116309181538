/**
 * Bench-local Vite config for the keystroke page (used through Vite's build API by suites/keystroke.ts).
 * Output goes to bench/.cache/keystroke-page. Vite 8 imports Automerge's wasm natively; its glue uses top-level
 * await, hence target esnext (renderer.md).
 */
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";
import { onBuildWarning } from "../../renderer/build-warnings.js";

export const KEYSTROKE_PAGE_OUT = fileURLToPath(new URL("../.cache/keystroke-page", import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL("./page", import.meta.url)),
  base: "./",
  logLevel: "warn",
  // The replica host's Web Worker imports Automerge (wasm, top-level await): an ES module worker.
  worker: { format: "es" },
  build: {
    outDir: KEYSTROKE_PAGE_OUT,
    emptyOutDir: true,
    target: "esnext",
    chunkSizeWarningLimit: 8192,
    rollupOptions: { onwarn: onBuildWarning },
  },
});
