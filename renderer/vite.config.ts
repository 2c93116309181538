/**
 * Builds the renderer page. The same output is served by host mode (main/host/) and loaded by Electron, so it must
 * work from any base path ('./') and need nothing from the network: Automerge's wasm is imported natively by Vite 8
 * and must not be pre-bundled in dev (a second copy of the wasm glue throws at startup).
 */
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root,
  base: "./",
  plugins: [react()],
  optimizeDeps: { exclude: ["@automerge/automerge"] },
  build: {
    outDir: fileURLToPath(new URL("./dist", import.meta.url)),
    emptyOutDir: true,
    // Automerge's wasm glue uses top-level await.
    target: "esnext",
    chunkSizeWarningLimit: 4096,
  },
  server: { host: "127.0.0.1" },
});
