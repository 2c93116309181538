/**
 * Builds the renderer page. The same output is served by host mode (main/host/) and loaded by Electron, so it must
 * work from any base path ('./') and need nothing from the network: Automerge's wasm is imported natively by Vite 8
 * and must not be pre-bundled in dev (a second copy of the wasm glue throws at startup). The built JavaScript carries
 * V8's compile hint (compile-hints.ts), so opening the first document does not compile the editor on the main thread.
 */
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { compileHints } from "./compile-hints.js";
import { onBuildWarning } from "./build-warnings.js";
import { unusedWasm } from "./unused-wasm.js";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root,
  base: "./",
  plugins: [react(), compileHints()],
  optimizeDeps: { exclude: ["@automerge/automerge"] },
  // The replica host's Web Worker imports Automerge (wasm, top-level await): an ES module worker, without the wasm
  // copy it emits but never loads (unused-wasm.ts).
  worker: { format: "es", plugins: () => [unusedWasm()] },
  build: {
    outDir: fileURLToPath(new URL("./dist", import.meta.url)),
    emptyOutDir: true,
    // Automerge's wasm glue uses top-level await.
    target: "esnext",
    chunkSizeWarningLimit: 4096,
    rollupOptions: { onwarn: onBuildWarning },
  },
  server: { host: "127.0.0.1" },
});
