/**
 * Command-line options of the desktop app: --data-dir (tests and side-by-side installs point the app at their own
 * folder; without it the app uses Electron's userData folder) and the GitHub options shared with host mode
 * (--github-client-id, --github-api-url, --github-web-url). Unknown arguments are left alone (Chromium and the OS
 * pass their own). GitHub values are returned raw: they are validated after `ready`, where a bad one can be shown
 * in a dialog instead of crashing before there is a window.
 */
import { resolve } from "node:path";
import { GITHUB_FLAGS, type GitHubConfigInput } from "../github/github-config.js";

export interface ElectronArgs {
  /** Absolute folder, when --data-dir was given. */
  dataDir: string | null;
  /** Raw GitHub options as given; parseGitHubConfig checks them. */
  github: GitHubConfigInput;
}

/** The value of `--flag VALUE` or `--flag=VALUE`; a missing, empty or flag-looking value counts as absent. */
function valueOf(argv: readonly string[], flag: string): string | null {
  let found: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === flag && i + 1 < argv.length && argv[i + 1] !== "" && !argv[i + 1].startsWith("--")) {
      found = argv[++i];
    } else if (arg.startsWith(`${flag}=`) && arg.length > flag.length + 1) {
      found = arg.slice(flag.length + 1);
    }
  }
  return found;
}

export function parseElectronArgs(argv: readonly string[], cwd: string = process.cwd()): ElectronArgs {
  const dataDir = valueOf(argv, "--data-dir");
  const github: GitHubConfigInput = {};
  for (const key of ["clientId", "apiUrl", "webUrl"] as const) {
    const value = valueOf(argv, GITHUB_FLAGS[key]);
    if (value !== null) github[key] = value;
  }
  return { dataDir: dataDir === null ? null : resolve(cwd, dataDir), github };
}
