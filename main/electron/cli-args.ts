/**
 * Command-line options of the desktop app. Only --data-dir exists: tests and side-by-side installs point the app at
 * their own folder; without it the app uses Electron's userData folder. Unknown arguments are left alone (Chromium
 * and the OS pass their own).
 */
import { resolve } from "node:path";

export interface ElectronArgs {
  /** Absolute folder, when --data-dir was given. */
  dataDir: string | null;
}

export function parseElectronArgs(argv: readonly string[], cwd: string = process.cwd()): ElectronArgs {
  let dataDir: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--data-dir" && i + 1 < argv.length && argv[i + 1] !== "" && !argv[i + 1].startsWith("--")) {
      dataDir = resolve(cwd, argv[++i]);
    } else if (arg.startsWith("--data-dir=") && arg.length > "--data-dir=".length) {
      dataDir = resolve(cwd, arg.slice("--data-dir=".length));
    }
  }
  return { dataDir };
}
