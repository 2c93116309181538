/**
 * The signed-in GitHub user's credential: OAuth device-flow sign-in (GitHub App user-to-server tokens), tokens held in
 * memory, an optional vault for "stay signed in", and a scheduled refresh GITHUB_TOKEN_REFRESH_LEAD_MS before the
 * 8-hour token expires. A user access token can also be supplied as it is (CHOPIN_GITHUB_TOKEN, for servers, CI and
 * agents): checked with GET /user, then held like any other credential but with no refresh token. What must stay true:
 *  - credentialRevision increments on every sign-in (device flow, supplied token or restore) and every refresh, never
 *    otherwise; a Planner session bound to revision N is stale the moment N is not current;
 *  - sign-out forgets the tokens in memory and in the vault, then announces 'signed-out' to whoever holds them;
 *  - a late answer (refresh, device flow or a token check finishing after sign-out or another sign-in) never
 *    resurrects a credential;
 *  - a supplied token is held in memory only: never handed to the vault, whatever "stay signed in" says, and never
 *    refreshed (GitHub gave us no refresh token for it);
 *  - without a client id there is no device flow and no refresh: only a supplied token can sign in.
 */
import { ChopinError } from "../../shared/errors.js";
import { GITHUB_DEVICE_FLOW_MIN_INTERVAL_MS, GITHUB_TOKEN_REFRESH_LEAD_MS, GITHUB_TOKEN_REFRESH_RETRY_MS } from "../util/limits.js";
import { TypedEmitter } from "../util/typed-emitter.js";
import { systemClock, type Clock, type TimerHandle } from "./clock.js";
import { GitHubRequestError } from "../../shared/github-errors.js";
import { pollDeviceToken, refreshTokens, requestDeviceCode, type OAuthWebOptions, type TokenSet } from "./oauth-web.js";
import { createGitHubRest } from "./rest-client.js";
import type { SecretVault, StoredCredential } from "./secret-vault.js";
import { TOKEN_EXPIRATION_HEADER, tokenExpiryFromHeader } from "./token-expiry.js";

export interface Identity {
  login: string;
  id: number;
  name: string | null;
}

/**
 * How a credential came: the device flow (or a restore of one it saved), or a token supplied as it is
 * (CHOPIN_GITHUB_TOKEN), which is held in memory only and has no refresh token.
 */
export type CredentialOrigin = "device-flow" | "supplied-token";

export interface Credential {
  accessToken: string;
  revision: number;
  /** Epoch ms, null for non-expiring tokens (and for a supplied token whose expiry GitHub does not say). */
  expiresAt: number | null;
  identity: Identity;
  origin: CredentialOrigin;
}

export type SignOutReason = "user" | "refresh-rejected" | "refresh-token-expired" | "token-rejected";

export interface CredentialEvents extends Record<string, unknown> {
  "signed-in": { identity: Identity; revision: number };
  /** A refresh is about to be asked for: whatever was made with this revision (Planner sessions) ends now. */
  refreshing: { revision: number };
  refreshed: { revision: number; expiresAt: number | null };
  "refresh-failed": { message: string; retryAt: number };
  "signed-out": { reason: SignOutReason; login: string; origin: CredentialOrigin };
}

export interface DeviceFlow {
  userCode: string;
  verificationUri: string;
  /** Seconds until the code expires. */
  expiresIn: number;
  /** Seconds between polls GitHub asked for. */
  interval: number;
  /** Resolves with the identity once the person approved; rejects with a ChopinError when denied, expired or cancelled. */
  wait(): Promise<Identity>;
  cancel(): void;
}

export interface CredentialStoreOptions {
  /** The GitHub App's OAuth client id; null: no device flow and no refresh, only a supplied token signs in. */
  clientId: string | null;
  /** OAuth endpoints, e.g. https://github.com (the fake serves both bases). */
  webBaseUrl: string;
  /** REST API, e.g. https://api.github.com or https://ghe.example/api/v3. */
  apiBaseUrl: string;
  clientSecret?: string;
  clock?: Clock;
  fetch?: typeof fetch;
  /** Where "stay signed in" keeps tokens; null or absent means memory only. */
  vault?: SecretVault | null;
  staySignedIn?: boolean;
}

interface Held {
  tokens: TokenSet;
  identity: Identity;
  revision: number;
  origin: CredentialOrigin;
}

export class CredentialStore {
  readonly #options: CredentialStoreOptions;
  readonly #clock: Clock;
  readonly #events = new TypedEmitter<CredentialEvents>();
  #held: Held | null = null;
  #revision = 0;
  #timer: TimerHandle | null = null;
  #refreshing: Promise<void> | null = null;
  #staySignedIn: boolean;
  #flows = new Set<{ cancel(): void }>();
  /** +1 on every sign-out: a token check that began before one must not sign in after it. */
  #signOuts = 0;
  /** Vault writes and erases run one after another, so an erase on sign-out can never be overtaken by a save. */
  #vaultQueue: Promise<unknown> = Promise.resolve();

  constructor(options: CredentialStoreOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#staySignedIn = options.staySignedIn ?? false;
  }

  get #web(): OAuthWebOptions {
    const o = this.#options;
    if (o.clientId === null) {
      throw new ChopinError("not-configured", "GitHub sign-in through the browser is not set up here: no GitHub App client id was given.");
    }
    return { webBaseUrl: o.webBaseUrl, clientId: o.clientId, clientSecret: o.clientSecret, fetch: o.fetch };
  }

  /** The credential revision: increments on every sign-in and every refresh. */
  get revision(): number {
    return this.#revision;
  }

  current(): Credential | null {
    const h = this.#held;
    return h ? { accessToken: h.tokens.accessToken, revision: h.revision, expiresAt: h.tokens.expiresAt, identity: h.identity, origin: h.origin } : null;
  }

  /** The access token for REST calls, or null when signed out. */
  readonly token = (): string | null => this.#held?.tokens.accessToken ?? null;

  now(): number {
    return this.#clock.now();
  }

  on<E extends keyof CredentialEvents>(event: E, listener: (payload: CredentialEvents[E]) => void): () => void {
    return this.#events.on(event, listener);
  }

  async startDeviceFlow(): Promise<DeviceFlow> {
    const web = this.#web;
    const code = await requestDeviceCode(web);
    const clock = this.#clock;
    const deadline = clock.now() + code.expiresInSeconds * 1000;
    let intervalMs = Math.max(code.intervalSeconds * 1000, GITHUB_DEVICE_FLOW_MIN_INTERVAL_MS);
    let timer: TimerHandle | null = null;
    let settle: { resolve(i: Identity): void; reject(e: Error): void } | null = null;
    let done = false;
    const finish = (outcome: { identity?: Identity; error?: Error }) => {
      if (done) return;
      done = true;
      if (timer) clock.clearTimer(timer);
      this.#flows.delete(flow);
      if (outcome.error) settle?.reject(outcome.error);
      else settle?.resolve(outcome.identity!);
    };
    const flow = { cancel: () => finish({ error: new ChopinError("unauthorized", "Sign-in was cancelled.", { reason: "cancelled" }) }) };
    this.#flows.add(flow);

    const poll = async () => {
      timer = null;
      if (done) return;
      if (clock.now() >= deadline) {
        return finish({ error: new ChopinError("unauthorized", "The sign-in code expired before it was approved. Start again.", { reason: "expired" }) });
      }
      try {
        const outcome = await pollDeviceToken(web, code.deviceCode, clock.now());
        if (done) return;
        if (outcome.ok) return finish({ identity: await this.#adopt(outcome.tokens) });
        switch (outcome.error) {
          case "authorization_pending":
            break;
          case "slow_down":
            intervalMs = outcome.intervalSeconds ? outcome.intervalSeconds * 1000 : intervalMs + GITHUB_DEVICE_FLOW_MIN_INTERVAL_MS;
            break;
          case "access_denied":
            return finish({ error: new ChopinError("unauthorized", "The sign-in was declined on GitHub.", { reason: "denied" }) });
          case "expired_token":
            return finish({ error: new ChopinError("unauthorized", "The sign-in code expired before it was approved. Start again.", { reason: "expired" }) });
          default:
            return finish({ error: new ChopinError("unauthorized", `GitHub refused the sign-in: ${outcome.description}`, { reason: outcome.error }) });
        }
      } catch (e) {
        // A transport blip mid-flow is retried at the next interval; the code's own expiry bounds the wait.
        if (!(e instanceof GitHubRequestError)) return finish({ error: e as Error });
        if (e.kind === "unauthorized" || e.kind === "forbidden") {
          return finish({ error: new ChopinError("unauthorized", "GitHub refused the new sign-in token.", { reason: e.kind }) });
        }
      }
      if (done) return;
      if (clock.now() >= deadline) {
        return finish({ error: new ChopinError("unauthorized", "The sign-in code expired before it was approved. Start again.", { reason: "expired" }) });
      }
      timer = clock.setTimer(() => void poll(), intervalMs);
    };

    const waiting = new Promise<Identity>((resolve, reject) => {
      settle = { resolve, reject };
    });
    waiting.catch(() => {}); // the caller observes rejection through wait()
    timer = clock.setTimer(() => void poll(), intervalMs);
    return {
      userCode: code.userCode,
      verificationUri: code.verificationUri,
      expiresIn: code.expiresInSeconds,
      interval: intervalMs / 1000,
      wait: () => waiting,
      cancel: flow.cancel,
    };
  }

  /**
   * Signs in with a user access token supplied as it is (CHOPIN_GITHUB_TOKEN): asks GitHub who it belongs to (GET
   * /user on the configured API), then holds it in memory only, with no refresh token and the expiry GitHub names for
   * it, if any. Rejects with the GitHubRequestError of the check (401 'unauthorized' for a bad token, 'unavailable' or
   * 'timeout' when GitHub cannot be reached) and then holds nothing new. A sign-out while the check runs wins.
   */
  async signInWithToken(accessToken: string): Promise<Identity> {
    const signOuts = this.#signOuts;
    const { identity, expiresAt } = await this.#verify(accessToken);
    if (signOuts !== this.#signOuts) {
      throw new ChopinError("unauthorized", "Signed out while the GitHub token was being checked; it was not used.", { reason: "cancelled" });
    }
    this.#install({ accessToken, refreshToken: null, expiresAt, refreshTokenExpiresAt: null }, identity, "supplied-token");
    this.#events.emit("signed-in", { identity, revision: this.#revision });
    return identity;
  }

  /** Loads a saved sign-in from the vault (when "stay signed in" is on); refreshes it first if it is due. */
  async restore(): Promise<Identity | null> {
    const vault = this.#options.vault;
    if (!vault || !this.#staySignedIn) return null;
    const stored = await vault.load();
    if (!stored) return null;
    const now = this.#clock.now();
    if (stored.refreshTokenExpiresAt !== null && stored.refreshTokenExpiresAt <= now && (stored.expiresAt ?? Infinity) <= now) {
      await this.#vaultOp(() => vault.clear());
      return null;
    }
    const identity: Identity = { login: stored.login, id: stored.userId, name: null };
    this.#install({ accessToken: stored.accessToken, refreshToken: stored.refreshToken, expiresAt: stored.expiresAt, refreshTokenExpiresAt: stored.refreshTokenExpiresAt }, identity, "device-flow");
    this.#events.emit("signed-in", { identity, revision: this.#revision });
    if (stored.expiresAt !== null && stored.expiresAt - GITHUB_TOKEN_REFRESH_LEAD_MS <= now) await this.refresh().catch(() => {});
    return this.#held?.identity ?? null;
  }

  /** Turns "stay signed in" on (saves the current sign-in to the vault) or off (erases the saved copy). */
  async setStaySignedIn(enabled: boolean): Promise<void> {
    const vault = this.#options.vault;
    if (enabled && !vault) throw new ChopinError("invalid-input", "No safe place to keep the sign-in is configured on this system.");
    this.#staySignedIn = enabled;
    if (!vault) return;
    const held = this.#held;
    // A supplied token is never saved: only a later device-flow sign-in would be.
    if (enabled && held && held.origin !== "supplied-token") await this.#vaultOp(() => vault.save(this.#stored(held)));
    if (!enabled) await this.#vaultOp(() => vault.clear());
  }

  /** Exchanges the refresh token for a new pair; one refresh at a time. */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#doRefresh().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  async signOut(reason: SignOutReason = "user"): Promise<void> {
    for (const f of [...this.#flows]) f.cancel();
    const held = this.#held;
    this.#held = null;
    this.#signOuts += 1;
    if (this.#timer) this.#clock.clearTimer(this.#timer);
    this.#timer = null;
    // Told before the vault is cleared: from the moment the credential is gone, current() says signed out, and a
    // listener's account of why (the session's lastError) must not lag behind that by a disk write.
    if (held) this.#events.emit("signed-out", { reason, login: held.identity.login, origin: held.origin });
    const vault = this.#options.vault;
    if (vault) await this.#vaultOp(() => vault.clear()).catch(() => {});
  }

  /** Stops timers; the store forgets nothing on disk. */
  dispose(): void {
    for (const f of [...this.#flows]) f.cancel();
    if (this.#timer) this.#clock.clearTimer(this.#timer);
    this.#timer = null;
  }

  async #doRefresh(): Promise<void> {
    const held = this.#held;
    if (!held?.tokens.refreshToken) throw new ChopinError("unauthorized", "There is no refresh token; sign in again.");
    const now = this.#clock.now();
    if (held.tokens.refreshTokenExpiresAt !== null && held.tokens.refreshTokenExpiresAt <= now) {
      await this.signOut("refresh-token-expired");
      throw new ChopinError("unauthorized", "The GitHub sign-in has ended; sign in again.", { reason: "refresh-token-expired" });
    }
    this.#events.emit("refreshing", { revision: held.revision });
    let outcome;
    try {
      outcome = await refreshTokens(this.#web, held.tokens.refreshToken, now);
    } catch (e) {
      if (this.#held !== held) return;
      const retryAt = this.#clock.now() + GITHUB_TOKEN_REFRESH_RETRY_MS;
      this.#arm(GITHUB_TOKEN_REFRESH_RETRY_MS);
      this.#events.emit("refresh-failed", { message: (e as Error).message, retryAt });
      throw new ChopinError("internal", `Refreshing the GitHub sign-in failed; retrying shortly. ${(e as Error).message}`, { reason: "github-unavailable" });
    }
    // Signed out or signed in again while the refresh was in flight: its answer belongs to nobody.
    if (this.#held !== held) return;
    if (!outcome.ok) {
      await this.signOut("refresh-rejected");
      throw new ChopinError("unauthorized", `GitHub refused to refresh the sign-in (${outcome.error}); sign in again.`, { reason: outcome.error });
    }
    this.#install(outcome.tokens, held.identity, held.origin);
    this.#events.emit("refreshed", { revision: this.#revision, expiresAt: outcome.tokens.expiresAt });
  }

  async #adopt(tokens: TokenSet): Promise<Identity> {
    const { identity } = await this.#verify(tokens.accessToken);
    this.#install(tokens, identity, "device-flow");
    this.#events.emit("signed-in", { identity, revision: this.#revision });
    return identity;
  }

  /** Who GitHub says the token belongs to (GET /user on the configured API), and its expiry when GitHub names one. */
  async #verify(accessToken: string): Promise<{ identity: Identity; expiresAt: number | null }> {
    const rest = createGitHubRest({ apiBaseUrl: this.#options.apiBaseUrl, token: () => accessToken, fetch: this.#options.fetch });
    const { data: user, headers } = await rest.octokit.rest.users.getAuthenticated();
    const identity: Identity = { login: user.login, id: user.id, name: user.name ?? null };
    return { identity, expiresAt: tokenExpiryFromHeader((headers as Record<string, unknown>)[TOKEN_EXPIRATION_HEADER]) };
  }

  /**
   * Holds new tokens: one revision step, refresh re-armed, vault updated (best effort, memory stays authoritative)
   * unless they are a supplied token, which only memory ever holds.
   */
  #install(tokens: TokenSet, identity: Identity, origin: CredentialOrigin): void {
    this.#revision += 1;
    this.#held = { tokens, identity, revision: this.#revision, origin };
    if (tokens.expiresAt !== null && tokens.refreshToken) {
      this.#arm(tokens.expiresAt - GITHUB_TOKEN_REFRESH_LEAD_MS - this.#clock.now());
    } else if (this.#timer) {
      this.#clock.clearTimer(this.#timer);
      this.#timer = null;
    }
    const vault = this.#options.vault;
    const held = this.#held;
    if (vault && this.#staySignedIn && origin !== "supplied-token") void this.#vaultOp(() => vault.save(this.#stored(held))).catch(() => {});
  }

  #vaultOp<T>(op: () => Promise<T>): Promise<T> {
    const next = this.#vaultQueue.then(op, op);
    this.#vaultQueue = next.catch(() => {});
    return next;
  }

  /** Resolves once every vault write or erase queued so far has finished. */
  async flushVault(): Promise<void> {
    await this.#vaultQueue;
  }

  #arm(delayMs: number): void {
    if (this.#timer) this.#clock.clearTimer(this.#timer);
    this.#timer = this.#clock.setTimer(() => {
      this.#timer = null;
      void this.refresh().catch(() => {});
    }, Math.max(0, delayMs));
  }

  #stored(h: Held): StoredCredential {
    return { ...h.tokens, login: h.identity.login, userId: h.identity.id };
  }
}
