/**
 * `npm start`: the Electron app where an Electron binary is installed, otherwise host mode (the UI served on
 * 127.0.0.1 for a browser). Arguments after `--` pass through, e.g. `npm start -- --headless --data-dir DIR`.
 * Builds what is missing first, so a fresh `npm install && npm start` works. The app stops when this launcher is told
 * to (SIGINT/SIGTERM) or loses its parent (child-lifetime.mjs), so a SIGTERM to npm's pid stops it.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tieChildToLauncher } from "./child-lifetime.mjs";
import { ELECTRON_FETCH_TIMEOUT_MS, rememberFetchFailure, shouldFetch } from "./electron-fetch-memo.mjs";
import { installedElectron } from "./installed-electron.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const bin = (name) => join(root, "node_modules", ".bin", process.platform === "win32" ? `${name}.cmd` : name);

/**
 * The path of a runnable Electron binary, or null. The electron package (v45) fetches its binary on first use; we
 * try that once, quietly, and fall back to host mode when it cannot be had (offline, or downloads blocked); a failure
 * is remembered for a day (electron-fetch-memo.mjs) so later launches do not wait on it again.
 */
function electronBinary() {
  const pkg = join(root, "node_modules", "electron");
  const installed = () => installedElectron(root);
  if (!existsSync(join(pkg, "install.js"))) return null;
  const found = installed();
  if (found) return found;
  const memo = join(root, "node_modules", ".cache", "chopin", "electron-fetch.json");
  if (!shouldFetch(memo, Date.now())) {
    console.log(`Not fetching Electron (it failed recently; delete ${memo} to try again now).`);
    return null;
  }
  console.log("Fetching the Electron binary…");
  const result = spawnSync(process.execPath, [join(pkg, "install.js")], { cwd: pkg, stdio: "pipe", timeout: ELECTRON_FETCH_TIMEOUT_MS });
  const fetched = result.status === 0 ? installed() : null;
  if (!fetched) {
    console.log("Could not fetch Electron here.");
    rememberFetchFailure(memo, Date.now());
  }
  return fetched;
}

function run(command, commandArgs) {
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: "inherit", shell: process.platform === "win32" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const electron = args.includes("--headless") ? null : electronBinary();
if (electron) {
  run(bin("electron-vite"), ["build"]);
  tieChildToLauncher(spawn(electron, [root, ...args], { cwd: root, stdio: "inherit" }));
} else {
  if (!args.includes("--headless")) console.log("No Electron binary is installed here: starting host mode (the UI in your browser).");
  if (!existsSync(join(root, "renderer", "dist", "index.html"))) run(bin("vite"), ["build", "--config", "renderer/vite.config.ts", "--logLevel", "warn"]);
  const hostArgs = args.includes("--headless") ? args : ["--headless", ...args];
  tieChildToLauncher(spawn(process.execPath, ["--import", "tsx", join(root, "main", "cli.ts"), ...hostArgs], { cwd: root, stdio: "inherit" }));
}
