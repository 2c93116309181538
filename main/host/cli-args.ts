/**
 * Parses host mode's command line: `--headless --data-dir DIR [--relay URL --relay-token T] [--ui-port P]
 * [--mcp-port P] [--github-client-id ID --github-api-url URL --github-web-url URL]`, with CHOPIN_* environment
 * equivalents. Bad values are typed errors with a sentence, not crashes.
 */
import { ChopinError } from "../../shared/errors.js";
import { DEFAULT_MCP_PORT, DEFAULT_UI_PORT } from "../../shared/defaults.js";
import { GITHUB_FLAGS, parseGitHubConfig, type GitHubConfig } from "../github/github-config.js";

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
}

const VALUE_FLAGS = new Set(["--data-dir", "--relay", "--relay-token", "--ui-port", "--mcp-port", ...Object.values(GITHUB_FLAGS)]);

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
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (VALUE_FLAGS.has(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new ChopinError("invalid-input", `${name} needs a value.`);
      values.set(name, value);
    } else if (["--headless", "--no-open", "--open"].includes(arg)) {
      flags.add(arg);
    } else {
      throw new ChopinError("invalid-input", `Unknown option “${arg}”. Options: --headless --data-dir DIR --relay URL --relay-token TOKEN --ui-port P --mcp-port P --no-open --github-client-id ID --github-api-url URL --github-web-url URL.`);
    }
  }
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
  };
}
