/**
 * Who a bearer token stands for at the relay, for both the WebSocket upgrade and GET /v1/team: first a relay user's
 * token (the foundation's per-user tokens, for teams without GitHub), then, when GitHub admission is configured, a
 * GitHub user token verified by the admission module (allowed users ∪ active members of allowed organizations).
 *
 * What must stay true:
 * - A GitHub identity is the login namespaced as "gh:<login>" (lower-cased). Relay handles cannot contain ':'
 *   (users.ts), so a GitHub login can never be, claim the peer ids of, or be cut by the revocation poll of a relay
 *   user with the same handle, and a relay user can never become a GitHub identity.
 * - Each refusal says why, with the HTTP status a client can branch on: 401 token missing, wrong or not accepted by
 *   GitHub; 403 a valid GitHub user this relay does not admit; 503 GitHub cannot be asked right now (fail closed);
 *   429 this address made too many GitHub checks that admitted nobody (admission/attempt-budget.ts), GitHub not asked.
 * - Without GitHub admission configured, behaviour is exactly the relay-token-only behaviour (401 for anything else).
 */
import type { ErrorCode } from "../shared/errors.js";
import { RELAY_GITHUB_CHECK_MAX_ADDRESSES, RELAY_GITHUB_CHECK_WINDOW_MS, RELAY_GITHUB_CHECKS_PER_ADDRESS } from "./limits.js";
import { AttemptBudget } from "./admission/attempt-budget.js";
import { createGitHubAdmission, type GitHubAdmission } from "./admission/github-admission.js";
import { startLiveGitHubSockets, type LiveGitHubSockets } from "./github-live.js";
import type { SocketIdentity } from "./server-adapter.js";
import { hashToken, type UserStore } from "./users.js";

/** GitHub admission at the relay; absent means relay tokens only. */
export interface RelayGitHubOptions {
  /** REST base, e.g. https://api.github.com, https://ghe.example/api/v3, or the fake's URL in tests. */
  apiUrl: string;
  /** Logins admitted whatever their organizations. Both lists empty admits every valid GitHub user. */
  allowedUsers?: readonly string[];
  /** Organizations whose active members are admitted. */
  allowedOrgs?: readonly string[];
  /** Live GitHub-admitted sockets are re-verified this often. Default GITHUB_ADMISSION_REVERIFY_MS. */
  reverifyMs?: number;
  /** Per GitHub request. Default GITHUB_REQUEST_TIMEOUT_MS. */
  timeoutMs?: number;
}

export const GITHUB_IDENTITY_PREFIX = "gh:";

export function githubIdentity(login: string): string {
  return `${GITHUB_IDENTITY_PREFIX}${login.toLowerCase()}`;
}

/** Whether a socket's user came in by GitHub admission (relay handles never contain ':'). */
export function isGitHubIdentity(user: string): boolean {
  return user.startsWith(GITHUB_IDENTITY_PREFIX);
}

export type RelayAuthOutcome =
  | { ok: true; identity: SocketIdentity; via: "relay-token" }
  /** `token` is kept only so live re-verification can ask GitHub again; it is never stored or logged. */
  | { ok: true; identity: SocketIdentity; via: "github"; token: string }
  /** `retryAfterSeconds`: when a 429's budget window ends (its Retry-After). */
  | { ok: false; status: 401 | 403 | 429 | 503; code: ErrorCode; message: string; retryAfterSeconds?: number };

/** `address`: the remote address, whose GitHub checks are budgeted. */
export type RelayAuthenticator = (token: string | null, address?: string) => Promise<RelayAuthOutcome>;

const RELAY_ONLY_401 = "The relay token is missing, wrong or revoked.";
const WITH_GITHUB_401 = "The token is missing, wrong or revoked: it is neither a relay token nor a GitHub sign-in this relay accepts.";

export function createRelayAuthenticator(
  users: UserStore,
  github: GitHubAdmission | null,
  budget = new AttemptBudget(RELAY_GITHUB_CHECKS_PER_ADDRESS, RELAY_GITHUB_CHECK_WINDOW_MS, RELAY_GITHUB_CHECK_MAX_ADDRESSES),
): RelayAuthenticator {
  return async (token, address = "unknown address") => {
    const local = users.authenticate(token);
    if (local) return { ok: true, identity: { user: local.handle, tokenHash: local.tokenHash }, via: "relay-token" };
    if (!github || !token) return { ok: false, status: 401, code: "unauthorized", message: github ? WITH_GITHUB_401 : RELAY_ONLY_401 };
    const taken = budget.take(address);
    if (!taken.ok) {
      const seconds = Math.ceil(taken.retryAfterMs / 1000);
      return {
        ok: false,
        status: 429,
        code: "rate-limited",
        message: `Too many refused sign-ins from this address; try again in ${seconds} s.`,
        retryAfterSeconds: seconds,
      };
    }
    const result = await github.verify(token);
    if (result.ok) {
      budget.refund(address);
      return { ok: true, identity: { user: githubIdentity(result.login), tokenHash: hashToken(token) }, via: "github", token };
    }
    switch (result.code) {
      case "not-admitted":
        return { ok: false, status: 403, code: "forbidden", message: result.reason };
      case "github-unavailable":
        return { ok: false, status: 503, code: "github-unavailable", message: result.reason };
      default:
        return { ok: false, status: 401, code: "unauthorized", message: `${WITH_GITHUB_401} ${result.reason}` };
    }
  };
}

export interface RelayAuth {
  authenticate: RelayAuthenticator;
  /** Call once a socket was accepted for `outcome`: GitHub-admitted sockets join live re-verification. */
  accepted(socket: { once(event: "close", listener: () => void): unknown }, outcome: Extract<RelayAuthOutcome, { ok: true }>): void;
  /** Re-verifies every live GitHub-admitted socket now; resolves with the number of tokens cut off (0 without GitHub). */
  reverifyGitHub(): Promise<number>;
  stop(): void;
}

/** The relay's whole authentication: relay tokens, plus GitHub admission and live re-verification when configured. */
export function startRelayAuth(options: {
  users: UserStore;
  github?: RelayGitHubOptions;
  /** Closes every socket whose credential has this hash; returns how many. */
  cut: (tokenHash: string, code: number, reason: string) => number;
  log?: (line: string) => void;
}): RelayAuth {
  const gh = options.github;
  const admission = gh
    ? createGitHubAdmission({
        apiBaseUrl: gh.apiUrl,
        allowedUsers: gh.allowedUsers ?? [],
        allowedOrganizations: gh.allowedOrgs ?? [],
        timeoutMs: gh.timeoutMs,
      })
    : null;
  const live: LiveGitHubSockets | null = admission
    ? startLiveGitHubSockets({ admission, cut: options.cut, intervalMs: gh?.reverifyMs, log: options.log })
    : null;
  return {
    authenticate: createRelayAuthenticator(options.users, admission),
    accepted(socket, outcome) {
      if (outcome.via === "github") live?.track(socket, outcome.token, outcome.identity.tokenHash);
    },
    reverifyGitHub: () => live?.reverifyNow() ?? Promise.resolve(0),
    stop: () => live?.stop(),
  };
}
