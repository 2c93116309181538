/**
 * Which GitHub this installation signs in to: the GitHub App's OAuth client id and the API and web base URLs
 * (github.com by default; GitHub Enterprise or the fake GitHub on 127.0.0.1 when given). Both shells read the same
 * flags and environment variables through here. What must stay true: tokens only ever travel over https, except to
 * a loopback address (the fake in tests); without a client id sign-in is 'not-configured', never guessed.
 */
import { ChopinError } from "../../shared/errors.js";

export const DEFAULT_GITHUB_API_URL = "https://api.github.com";
export const DEFAULT_GITHUB_WEB_URL = "https://github.com";

export interface GitHubConfig {
  clientId: string | null;
  apiBaseUrl: string;
  webBaseUrl: string;
}

export interface GitHubConfigInput {
  clientId?: string | null;
  apiUrl?: string | null;
  webUrl?: string | null;
}

export const GITHUB_FLAGS = { clientId: "--github-client-id", apiUrl: "--github-api-url", webUrl: "--github-web-url" } as const;
export const GITHUB_ENV = { clientId: "CHOPIN_GITHUB_CLIENT_ID", apiUrl: "CHOPIN_GITHUB_API_URL", webUrl: "CHOPIN_GITHUB_WEB_URL" } as const;
/**
 * A GitHub user access token to sign in with at launch (servers, CI, agents). An environment variable only, never a
 * flag: a command line shows in `ps` to every account on the machine.
 */
export const GITHUB_TOKEN_ENV = "CHOPIN_GITHUB_TOKEN";

/** The supplied token from the environment, trimmed; null when absent or empty. Its shape is checked at sign-in. */
export function readGitHubToken(env: NodeJS.ProcessEnv = process.env): string | null {
  const raw = env[GITHUB_TOKEN_ENV];
  return raw === undefined || raw.trim() === "" ? null : raw.trim();
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);
/** GitHub client ids are short ASCII tokens such as "Iv1.0123abcd" or "Iv23li..."; anything else is a typo. */
const CLIENT_ID = /^[A-Za-z0-9._-]{1,100}$/;

function parseBaseUrl(flag: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ChopinError("invalid-input", `${flag} needs an https:// address; got “${raw}”.`);
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname) || url.hostname.startsWith("127.");
  if (!(url.protocol === "https:" || (url.protocol === "http:" && loopback)) || url.username || url.password || url.search || url.hash) {
    throw new ChopinError("invalid-input", `${flag} needs an https:// address (http:// only on this computer); got “${raw}”.`);
  }
  return url.toString().replace(/\/+$/, "");
}

/** Flags win over the environment; empty values count as absent. */
export function parseGitHubConfig(flags: GitHubConfigInput, env: NodeJS.ProcessEnv = process.env): GitHubConfig {
  const pick = (key: keyof GitHubConfigInput) => {
    const v = flags[key] ?? env[GITHUB_ENV[key]] ?? null;
    return v === null || v.trim() === "" ? null : v.trim();
  };
  const clientId = pick("clientId");
  if (clientId !== null && !CLIENT_ID.test(clientId)) {
    throw new ChopinError("invalid-input", `${GITHUB_FLAGS.clientId} needs the GitHub App's client id (letters, digits, '.', '_', '-'); got “${clientId.slice(0, 120)}”.`);
  }
  const apiUrl = pick("apiUrl");
  const webUrl = pick("webUrl");
  return {
    clientId,
    apiBaseUrl: apiUrl === null ? DEFAULT_GITHUB_API_URL : parseBaseUrl(GITHUB_FLAGS.apiUrl, apiUrl),
    webBaseUrl: webUrl === null ? DEFAULT_GITHUB_WEB_URL : parseBaseUrl(GITHUB_FLAGS.webUrl, webUrl),
  };
}
