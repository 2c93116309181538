/**
 * electron-vite build of the desktop app into out/: out/main/index.js (ESM, the package's "main"), out/preload/index.cjs
 * and out/renderer/. What must stay true:
 *  - the preload is CommonJS and self-contained: a sandboxed preload can neither be an ES module nor require
 *    anything but 'electron' (so nothing is externalized there);
 *  - main externalizes its dependencies (better-sqlite3 is a native module; electron-builder ships node_modules and
 *    rebuilds it for Electron);
 *  - the renderer is the same build host mode serves (renderer/vite.config.ts), only written to out/renderer.
 * No Electron binary is needed to build; if the `electron` package is missing, set ELECTRON_MAJOR_VER=45.
 */
import { defineConfig, mergeConfig } from "electron-vite";
import { fileURLToPath } from "node:url";
import rendererConfig from "./renderer/vite.config.js";

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  main: {
    build: {
      outDir: path("./out/main"),
      externalizeDeps: true,
      rollupOptions: { input: { index: path("./main/electron/main.ts") } },
    },
  },
  preload: {
    build: {
      outDir: path("./out/preload"),
      externalizeDeps: false,
      rollupOptions: {
        input: { index: path("./preload/index.ts") },
        output: { format: "cjs", entryFileNames: "[name].cjs" },
      },
    },
  },
  renderer: mergeConfig(rendererConfig, {
    build: {
      outDir: path("./out/renderer"),
      rollupOptions: { input: { index: path("./renderer/index.html") } },
    },
  }),
});
