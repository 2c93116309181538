/**
 * Parses host mode's command line: `--headless --data-dir DIR [--relay URL --relay-token T] [--ui-port P]
 * [--mcp-port P] [--github-client-id ID --github-api-url URL --github-web-url URL] [--planner-provider ...]
 * [--enable-agent-chat]`, with CHOPIN_* environment
 * equivalents, and CHOPIN_GITHUB_TOKEN (a GitHub user access token to sign in with, from the environment only: a
 * flag would show it in `ps`). Bad values are typed errors with a sentence, not crashes.
 */
import { ChopinError } from "../../shared/errors.js";
import { readOptions, type OptionKinds } from "../../shared/node/cli-options.js";
import { DEFAULT_MCP_PORT, DEFAULT_UI_PORT } from "../../shared/defaults.js";
import { GITHUB_FLAGS, GITHUB_TOKEN_ENV, parseGitHubConfig, readGitHubToken, type GitHubConfig } from "../github/github-config.js";
import type { AppCoreOptions } from "../core/types.js";
import { PLANNER_FLAGS, parsePlannerArgs } from "./planner-args.js";
import { AGENT_CHAT_ENV, AGENT_CHAT_FLAG, parseAgentChatArg } from "./agent-chat-args.js";

export interface HostArgs {
  headless: boolean;
  dataDir: string | null;
  relayUrl: string | null;
  relayToken: string | null;
  uiPort: number;
  mcpPort: number;
  /** Open the URL in the default browser (off in tests and CI). */
  open: boolean;
  /** Which GitHub to sign in to; clientId null means sign-in is not configured. */
  github: GitHubConfig;
  /** CHOPIN_GITHUB_TOKEN: a user access token to sign in with at start, held in memory only; never read from a flag. */
  githubToken: string | null;
  /** The Planner's provider and whether it is off (planner-args.ts). */
  planner: NonNullable<AppCoreOptions["planner"]>;
  /** Agent chat on for this run (agent-chat-args.ts). */
  enableAgentChat: boolean;
}

/** The options, for util.parseArgs (shared/node/cli-options.ts). */
const OPTIONS: OptionKinds = {
  headless: { type: "boolean" },
  open: { type: "boolean" },
  "no-open": { type: "boolean" },
  [AGENT_CHAT_FLAG.slice(2)]: { type: "boolean" },
  "data-dir": { type: "string" },
  relay: { type: "string" },
  "relay-token": { type: "string" },
  "ui-port": { type: "string" },
  "mcp-port": { type: "string" },
  ...Object.fromEntries(Object.values(GITHUB_FLAGS).map((flag) => [flag.slice(2), { type: "string" as const }])),
  ...Object.fromEntries(Object.values(PLANNER_FLAGS).map((flag) => [flag.slice(2), { type: "string" as const }])),
};
const OFFERED =
  `Options: --headless --data-dir DIR --relay URL --relay-token TOKEN --ui-port P --mcp-port P --no-open --github-client-id ID --github-api-url URL --github-web-url URL --planner-provider openai|anthropic|azure --planner-base-url URL --planner-model NAME ${AGENT_CHAT_FLAG} (or ${AGENT_CHAT_ENV}=1). ` +
  `Environment only: ${GITHUB_TOKEN_ENV}=TOKEN signs in to GitHub (checked against --github-api-url) with a user access token held in memory only.`;

function parsePort(flag: string, raw: string): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ChopinError("invalid-input", `${flag} needs a port number from 0 to 65535 (0 picks a free one); got “${raw}”.`);
  }
  return port;
}

function parseRelayUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ChopinError("invalid-input", `--relay needs a ws:// or wss:// address; got “${raw}”.`);
  }
  if (url.protocol !== "ws:" && url.protocol !== "wss:") {
    throw new ChopinError("invalid-input", `--relay needs a ws:// or wss:// address; got “${raw}”.`);
  }
  return url.toString().replace(/\/$/, "");
}

export function parseHostArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): HostArgs {
  const { values: read } = readOptions(argv, OPTIONS, { offered: OFFERED });
  const values = new Map(Object.entries(read).filter((entry): entry is [string, string] => typeof entry[1] === "string").map(([name, value]) => [`--${name}`, value]));
  const flags = new Set(Object.entries(read).filter(([, value]) => value === true).map(([name]) => `--${name}`));
  const pick = (flag: string, envName: string) => values.get(flag) ?? env[envName] ?? null;
  const relay = pick("--relay", "CHOPIN_RELAY_URL");
  const uiPort = pick("--ui-port", "CHOPIN_UI_PORT");
  const mcpPort = pick("--mcp-port", "CHOPIN_MCP_PORT");
  return {
    headless: flags.has("--headless"),
    dataDir: pick("--data-dir", "CHOPIN_DATA_DIR"),
    relayUrl: relay ? parseRelayUrl(relay) : null,
    relayToken: pick("--relay-token", "CHOPIN_RELAY_TOKEN"),
    uiPort: uiPort === null ? DEFAULT_UI_PORT : parsePort("--ui-port", uiPort),
    mcpPort: mcpPort === null ? DEFAULT_MCP_PORT : parsePort("--mcp-port", mcpPort),
    open: flags.has("--open") || (!flags.has("--no-open") && !env.CI),
    github: parseGitHubConfig(
      { clientId: values.get(GITHUB_FLAGS.clientId), apiUrl: values.get(GITHUB_FLAGS.apiUrl), webUrl: values.get(GITHUB_FLAGS.webUrl) },
      env,
    ),
    githubToken: readGitHubToken(env),
    planner: parsePlannerArgs(values, env),
    enableAgentChat: parseAgentChatArg(flags.has(AGENT_CHAT_FLAG), env),
  };
}
