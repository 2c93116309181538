/**
 * Command-line options of the desktop app: --data-dir (tests and side-by-side installs point the app at their own
 * folder; without it the app uses Electron's userData folder) and the GitHub options shared with host mode
 * (--github-client-id, --github-api-url, --github-web-url). Unknown arguments are left alone (Chromium and the OS
 * pass their own). GitHub values are returned raw: they are validated after `ready`, where a bad one can be shown
 * in a dialog instead of crashing before there is a window.
 */
import { AGENT_CHAT_FLAG } from "../host/agent-chat-args.js";
import { resolve } from "node:path";
import { readOptions, type OptionKinds } from "../../shared/node/cli-options.js";
import { GITHUB_FLAGS, type GitHubConfigInput } from "../github/github-config.js";

export interface ElectronArgs {
  /** Absolute folder, when --data-dir was given. */
  dataDir: string | null;
  /** Raw GitHub options as given; parseGitHubConfig checks them. */
  github: GitHubConfigInput;
  /** --enable-agent-chat was given (agent chat on for this run). */
  enableAgentChat: boolean;
}

/** The desktop app's own options; anything else on the command line is Chromium's or the OS's and is left alone. */
const OPTIONS: OptionKinds = {
  "data-dir": { type: "string" },
  [AGENT_CHAT_FLAG.slice(2)]: { type: "boolean" },
  ...Object.fromEntries(Object.values(GITHUB_FLAGS).map((flag) => [flag.slice(2), { type: "string" as const }])),
};

/** An option's value: a missing, empty or flag-looking value counts as absent (the OS may add a flag right after). */
function valueOf(values: Record<string, string | boolean | undefined>, name: string): string | null {
  const value = values[name];
  return typeof value === "string" && value !== "" && !value.startsWith("--") ? value : null;
}

export function parseElectronArgs(argv: readonly string[], cwd: string = process.cwd()): ElectronArgs {
  const { values } = readOptions(argv, OPTIONS, { strict: false });
  const dataDir = valueOf(values, "data-dir");
  const github: GitHubConfigInput = {};
  for (const key of ["clientId", "apiUrl", "webUrl"] as const) {
    const value = valueOf(values, GITHUB_FLAGS[key].slice(2));
    if (value !== null) github[key] = value;
  }
  return { dataDir: dataDir === null ? null : resolve(cwd, dataDir), github, enableAgentChat: values[AGENT_CHAT_FLAG.slice(2)] === true };
}
