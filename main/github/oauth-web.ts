/**
 * GitHub's OAuth web endpoints for a GitHub App (on the web base, which differs from the API base on github.com):
 * the device-code request, the device-code token poll and the refresh-token grant. These answer HTTP 200 with an
 * `error` field for protocol outcomes (authorization_pending, slow_down, bad_refresh_token...), so outcomes are
 * returned as values and only transport failures throw. Asked through the same bounded octokit client as the API.
 */
import { GITHUB_REQUEST_TIMEOUT_MS } from "../../shared/limits.js";
import { GitHubRequestError } from "../../shared/github-errors.js";
import { createGitHubClient } from "../../shared/node/github-client.js";

export interface OAuthWebOptions {
  webBaseUrl: string;
  clientId: string;
  /** Some GitHub App configurations require the secret to refresh; a desktop app normally has none. */
  clientSecret?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export interface DeviceCode {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  expiresInSeconds: number;
  intervalSeconds: number;
}

export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  /** Epoch ms, or null when the App issues non-expiring tokens. */
  expiresAt: number | null;
  refreshTokenExpiresAt: number | null;
}

export type TokenOutcome = { ok: true; tokens: TokenSet } | { ok: false; error: string; description: string; intervalSeconds?: number };

async function postForm(options: OAuthWebOptions, path: string, form: Record<string, string>): Promise<Record<string, unknown>> {
  // Anonymous: these endpoints identify the App by its client id, not a user's token.
  const github = createGitHubClient({ baseUrl: options.webBaseUrl, userAgent: "chopin-desktop", fetch: options.fetch, timeoutMs: options.timeoutMs ?? GITHUB_REQUEST_TIMEOUT_MS });
  const { data } = await github.request(`POST ${path}`, { ...form, headers: { accept: "application/json" } });
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new GitHubRequestError("invalid-response", "GitHub's sign-in answer was not an object.");
  return data as Record<string, unknown>;
}

export async function requestDeviceCode(options: OAuthWebOptions): Promise<DeviceCode> {
  const b = await postForm(options, "/login/device/code", { client_id: options.clientId });
  if (typeof b.device_code !== "string" || typeof b.user_code !== "string" || typeof b.verification_uri !== "string") {
    throw new GitHubRequestError("invalid-response", `GitHub did not start the device flow (${String(b.error ?? "no device code")}).`);
  }
  return {
    deviceCode: b.device_code,
    userCode: b.user_code,
    verificationUri: b.verification_uri,
    expiresInSeconds: Number(b.expires_in) || 900,
    intervalSeconds: Number(b.interval) || 5,
  };
}

function toOutcome(b: Record<string, unknown>, now: number): TokenOutcome {
  if (typeof b.access_token === "string") {
    const expiresIn = Number(b.expires_in);
    const refreshExpiresIn = Number(b.refresh_token_expires_in);
    return {
      ok: true,
      tokens: {
        accessToken: b.access_token,
        refreshToken: typeof b.refresh_token === "string" ? b.refresh_token : null,
        expiresAt: expiresIn > 0 ? now + expiresIn * 1000 : null,
        refreshTokenExpiresAt: refreshExpiresIn > 0 ? now + refreshExpiresIn * 1000 : null,
      },
    };
  }
  return {
    ok: false,
    error: String(b.error ?? "unknown_error"),
    description: String(b.error_description ?? "GitHub did not issue a token."),
    ...(Number(b.interval) > 0 ? { intervalSeconds: Number(b.interval) } : {}),
  };
}

export async function pollDeviceToken(options: OAuthWebOptions, deviceCode: string, now: number): Promise<TokenOutcome> {
  const b = await postForm(options, "/login/oauth/access_token", {
    client_id: options.clientId,
    device_code: deviceCode,
    grant_type: "urn:ietf:params:oauth:grant-type:device_code",
  });
  return toOutcome(b, now);
}

export async function refreshTokens(options: OAuthWebOptions, refreshToken: string, now: number): Promise<TokenOutcome> {
  const b = await postForm(options, "/login/oauth/access_token", {
    client_id: options.clientId,
    ...(options.clientSecret ? { client_secret: options.clientSecret } : {}),
    grant_type: "refresh_token",
    refresh_token: refreshToken,
  });
  return toOutcome(b, now);
}
