/**
 * The person's GitHub sign-in as the app shows it: composes the CredentialStore (device flow, refresh, revision), the
 * sign-in vault and the REST client into one AuthState that changes only through this class and is announced on
 * every change. At launch it either restores a saved sign-in or, when a token was supplied (CHOPIN_GITHUB_TOKEN, for
 * servers, CI and agents), signs in with that token instead. What must stay true:
 *  - without a client id and without a supplied token the state is 'not-configured' and nothing is ever sent to
 *    GitHub; with a supplied token but no client id there is still no device flow, and the state is 'signed-in'
 *    while the token is held, 'not-configured' (with the reason as lastError) otherwise;
 *  - a supplied token is held in memory only and used once: a failed check or a sign-out forgets it for good;
 *  - a sign-in attempt that was cancelled or replaced never changes the state when its answer arrives late;
 *  - sign-out forgets the tokens in memory and every saved copy on disk, then announces 'signed-out';
 *  - nothing else in the app waits for GitHub: restore runs in the background and failures become lastError.
 */
import type { AuthState, GitHubInstallation, GitHubRepositorySummary, RepositoryChoice, StartSignInOptions } from "../../shared/api.js";
import { ChopinError, toErrorShape, type ErrorShape } from "../../shared/errors.js";
import { MAX_GITHUB_NODE_ID_CHARS } from "../../shared/limits.js";
import type { Clock } from "./clock.js";
import { CredentialStore, type DeviceFlow } from "./credentials.js";
import type { GitHubConfig } from "./github-config.js";
import { GitHubRequestError } from "../../shared/github-errors.js";
import {
  bindRepository,
  followBinding,
  listInstallationRepositories,
  listInstallations,
  type RepositoryBinding,
} from "./repository-binding.js";
import { createGitHubRest, type GitHubRest } from "./rest-client.js";
import type { OsCipher } from "./secret-vault.js";
import { SignInVault } from "./github-vault.js";
import { checkSuppliedTokenShape, SUPPLIED_TOKEN_SOURCE, suppliedTokenRefusal } from "./supplied-token.js";

export interface GitHubSessionOptions {
  config: GitHubConfig;
  /** Where a "stay signed in" sign-in is kept. */
  dataDir: string;
  /** The OS encryption the shell offers (Electron's safeStorage); absent in host mode. */
  osCipher?: OsCipher | null;
  clock?: Clock;
  /** Called with the new state after every change. */
  onState: (state: AuthState) => void;
  /**
   * A user access token to sign in with at launch instead of restoring a saved sign-in (CHOPIN_GITHUB_TOKEN). Held
   * in memory only; it needs no client id.
   */
  suppliedToken?: string | null;
}

/** Turns a GitHub failure into the contract's typed error; anything else passes through. */
export function toChopinError(error: unknown): unknown {
  if (!(error instanceof GitHubRequestError)) return error;
  switch (error.kind) {
    case "signed-out":
      return new ChopinError("unauthorized", "Sign in with GitHub first.", { reason: "signed-out" });
    case "unauthorized":
      return new ChopinError("unauthorized", "GitHub no longer accepts this sign-in; sign out and sign in again.", { reason: "unauthorized" });
    case "forbidden":
      return new ChopinError("forbidden", error.message);
    case "not-found":
      return new ChopinError("not-found", error.message);
    case "rate-limited":
      return new ChopinError("github-unavailable", error.message, error.resetAt ? { resetAt: error.resetAt } : undefined);
    default:
      return new ChopinError("github-unavailable", error.message, { reason: error.kind });
  }
}

function positiveId(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new ChopinError("invalid-input", `${what} must be a positive whole number.`);
  }
  return value;
}

export class GitHubSession {
  readonly #config: GitHubConfig;
  readonly #onState: (state: AuthState) => void;
  readonly #vault: SignInVault;
  readonly #store: CredentialStore | null;
  readonly #rest: GitHubRest | null;
  #flow: { attempt: number; info: NonNullable<AuthState["deviceFlow"]>; flow: DeviceFlow | null } | null = null;
  #attempt = 0;
  #staySignedIn = false;
  #profile: { name?: string; avatarUrl?: string } = {};
  #lastError: ErrorShape | null = null;
  #restoring: Promise<void> = Promise.resolve();
  #stops: (() => void)[] = [];
  /** Until launch uses it: then forgotten here, held (if GitHub took it) by the store alone. */
  #suppliedToken: string | null;

  constructor(options: GitHubSessionOptions) {
    this.#config = options.config;
    this.#onState = options.onState;
    this.#vault = new SignInVault({ dataDir: options.dataDir, osCipher: options.osCipher });
    this.#suppliedToken = options.suppliedToken?.trim() || null;
    const clientId = options.config.clientId || null;
    if (!clientId && !this.#suppliedToken) {
      this.#store = null;
      this.#rest = null;
      return;
    }
    const store = new CredentialStore({
      clientId,
      webBaseUrl: options.config.webBaseUrl,
      apiBaseUrl: options.config.apiBaseUrl,
      clock: options.clock,
      // No client id, no device flow: nothing this store holds could ever be saved, so it gets nowhere to save it.
      vault: clientId ? this.#vault : null,
      staySignedIn: false,
    });
    this.#store = store;
    this.#rest = createGitHubRest({ apiBaseUrl: options.config.apiBaseUrl, token: store.token });
    this.#stops.push(
      store.on("signed-in", () => {
        this.#lastError = null;
        this.#announce();
        void this.#loadProfile(store.revision);
      }),
      store.on("refreshed", () => this.#announce()),
      store.on("refresh-failed", ({ message }) => {
        this.#lastError = { code: "github-unavailable", message: `Refreshing the GitHub sign-in failed; retrying shortly. ${message}` };
        this.#announce();
      }),
      store.on("signed-out", ({ reason, origin }) => {
        this.#profile = {};
        this.#staySignedIn = false;
        this.#vault.forget();
        if (reason !== "user" && origin === "supplied-token") {
          this.#lastError = {
            code: "unauthorized",
            message: `GitHub no longer accepts ${SUPPLIED_TOKEN_SOURCE} (it may have expired or been revoked), so Chopin is signed out of GitHub. Start it with a new token to use GitHub again.`,
          };
        } else if (reason === "token-rejected") {
          this.#lastError = { code: "unauthorized", message: "GitHub no longer accepts this sign-in (it may have been revoked). Sign in again to use repositories." };
        } else if (reason !== "user") {
          this.#lastError = { code: "unauthorized", message: "GitHub ended the sign-in. Sign in again to use repositories." };
        }
        this.#announce();
      }),
    );
  }

  /** REST client reading the current token at call time; null when sign-in is not configured (nor a token supplied). */
  get rest(): GitHubRest | null {
    return this.#rest;
  }

  /** The credential store (revision, current token) for permission checks; null when not configured. */
  get credentials(): CredentialStore | null {
    return this.#store;
  }

  state(): AuthState {
    const base = { staySignedIn: this.#staySignedIn, secureStorage: this.#vault.secureStorage, ...(this.#lastError ? { lastError: this.#lastError } : {}) };
    const store = this.#store;
    if (!store) return { state: "not-configured", credentialRevision: 0, ...base, staySignedIn: false };
    const cred = store.current();
    if (cred) {
      const supplied = cred.origin === "supplied-token";
      const name = this.#profile.name ?? cred.identity.name ?? undefined;
      return {
        state: "signed-in",
        login: cred.identity.login,
        ...(name ? { name } : {}),
        ...(this.#profile.avatarUrl ? { avatarUrl: this.#profile.avatarUrl } : {}),
        ...(cred.expiresAt !== null ? { expiresAt: cred.expiresAt } : {}),
        credentialRevision: store.revision,
        ...base,
        ...(supplied ? { suppliedToken: true, staySignedIn: false } : {}),
      };
    }
    // Signed out with no client id: only a supplied token could sign in, and it is spent, so sign-in is not set up.
    if (!this.#config.clientId) return { state: "not-configured", credentialRevision: store.revision, ...base, staySignedIn: false };
    if (this.#flow) return { state: "signing-in", credentialRevision: store.revision, deviceFlow: { ...this.#flow.info }, ...base };
    return { state: "signed-out", credentialRevision: store.revision, ...base };
  }

  /**
   * At launch: signs in with the supplied token when there is one (a saved sign-in then stays where it is, unused),
   * otherwise brings back a saved sign-in; in the background. Never throws: a failure becomes lastError.
   */
  restore(): Promise<void> {
    const store = this.#store;
    const supplied = this.#suppliedToken;
    if (store && supplied !== null) {
      this.#suppliedToken = null;
      this.#restoring = this.#signInWithSuppliedToken(store, supplied);
      return this.#restoring;
    }
    if (!store || !this.#config.clientId || !this.#vault.prepareRestore()) return this.#restoring;
    this.#restoring = (async () => {
      try {
        await store.setStaySignedIn(true);
        this.#staySignedIn = true;
        const identity = await store.restore();
        if (!identity) this.#staySignedIn = false;
      } catch (error) {
        this.#staySignedIn = false;
        this.#vault.forget();
        this.#lastError = toErrorShape(toChopinError(error));
      }
      this.#announce();
    })();
    return this.#restoring;
  }

  /** Checks the supplied token with GitHub and holds it (the store's 'signed-in' announces that); else says why. */
  async #signInWithSuppliedToken(store: CredentialStore, token: string): Promise<void> {
    try {
      checkSuppliedTokenShape(token);
      await store.signInWithToken(token);
    } catch (error) {
      this.#lastError = toErrorShape(suppliedTokenRefusal(error, this.#config.apiBaseUrl));
      this.#announce();
    }
  }

  async startSignIn(input?: StartSignInOptions): Promise<AuthState> {
    const options = input ?? {};
    const store = this.#requireDeviceFlow();
    await this.#restoring;
    const stay = options.staySignedIn === true;
    const current = store.current();
    if (current) {
      throw new ChopinError("invalid-input", `Already signed in to GitHub as ${current.identity.login}. Sign out first to switch accounts.`);
    }
    this.#cancelFlow();
    this.#vault.choose(stay, options.plaintextConsent === true);
    await store.setStaySignedIn(stay);
    this.#staySignedIn = stay;
    const attempt = ++this.#attempt;
    this.#lastError = null;
    let flow: DeviceFlow;
    try {
      flow = await store.startDeviceFlow();
    } catch (error) {
      const shaped = toChopinError(error);
      if (attempt === this.#attempt) {
        this.#lastError = toErrorShape(shaped);
        this.#announce();
      }
      throw shaped;
    }
    if (attempt !== this.#attempt) {
      flow.cancel();
      return this.state();
    }
    const info = { userCode: flow.userCode, verificationUri: flow.verificationUri, expiresAt: store.now() + flow.expiresIn * 1000 };
    this.#flow = { attempt, info, flow };
    flow.wait().then(
      () => {
        if (this.#flow?.attempt !== attempt) return;
        this.#flow = null;
        this.#announce();
      },
      (error: unknown) => {
        if (this.#flow?.attempt !== attempt) return;
        this.#flow = null;
        const shaped = toErrorShape(toChopinError(error));
        if ((shaped.details as { reason?: string } | undefined)?.reason !== "cancelled") this.#lastError = shaped;
        this.#announce();
      },
    );
    const state = this.state();
    this.#onState(state);
    return state;
  }

  async cancelSignIn(): Promise<AuthState> {
    this.#attempt++;
    this.#cancelFlow();
    this.#lastError = null;
    this.#announce();
    return this.state();
  }

  async signOut(): Promise<AuthState> {
    this.#attempt++;
    this.#cancelFlow();
    const store = this.#store;
    if (store) {
      await store.signOut("user");
      await store.setStaySignedIn(false).catch(() => {});
    }
    await this.#vault.clear().catch(() => {});
    this.#vault.forget();
    this.#staySignedIn = false;
    this.#profile = {};
    this.#lastError = null;
    this.#announce();
    return this.state();
  }

  async listInstallations(): Promise<GitHubInstallation[]> {
    const rest = this.#requireSignedIn();
    try {
      return await listInstallations(rest);
    } catch (error) {
      throw this.#failed(error);
    }
  }

  async listInstallationRepositories(installationId: number): Promise<GitHubRepositorySummary[]> {
    const rest = this.#requireSignedIn();
    const id = positiveId(installationId, "The installation id");
    try {
      const repos = await listInstallationRepositories(rest, id);
      return repos.map((r) => ({ nodeId: r.nodeId, owner: r.owner, name: r.name, defaultBranch: r.defaultBranch, private: r.private }));
    } catch (error) {
      throw this.#failed(error);
    }
  }

  /** Finds the chosen repository in the installation's own list right now; the caller's words are only a key. */
  async resolveRepository(choice: RepositoryChoice): Promise<RepositoryBinding> {
    const rest = this.#requireSignedIn();
    if (!choice || typeof choice !== "object") throw new ChopinError("invalid-input", "Choose a repository to bind.");
    const installationId = positiveId(choice.installationId, "The installation id");
    const nodeId = choice.repositoryNodeId;
    if (typeof nodeId !== "string" || nodeId.length === 0 || nodeId.length > MAX_GITHUB_NODE_ID_CHARS || !/^[A-Za-z0-9_=-]+$/.test(nodeId)) {
      throw new ChopinError("invalid-input", "That is not a GitHub repository id.");
    }
    let repos;
    try {
      repos = await listInstallationRepositories(rest, installationId);
    } catch (error) {
      throw this.#failed(error);
    }
    const found = repos.find((r) => r.nodeId === nodeId);
    if (!found) {
      throw new ChopinError("not-found", "That repository is not among the ones the Chopin GitHub App can reach for you.", { nodeId });
    }
    return bindRepository(installationId, found);
  }

  /** Refuses with the contract's typed error unless someone is signed in (not-configured / unauthorized). */
  assertSignedIn(): void {
    this.#requireSignedIn();
  }

  /**
   * The binding as GitHub describes its repository now, followed by numeric id (renames and transfers keep it).
   * Refuses with not-found when the id answers with a different node id or not at all.
   */
  async followRepository(binding: RepositoryBinding): Promise<RepositoryBinding> {
    const rest = this.#requireSignedIn();
    try {
      return await followBinding(rest, binding);
    } catch (error) {
      throw this.#failed(error);
    }
  }

  /** Stops timers and listeners; a saved sign-in stays saved. */
  dispose(): void {
    this.#attempt++;
    this.#cancelFlow();
    for (const stop of this.#stops.splice(0)) stop();
    this.#store?.dispose();
  }

  #requireDeviceFlow(): CredentialStore {
    if (!this.#store || !this.#config.clientId) {
      throw new ChopinError(
        "not-configured",
        "GitHub sign-in is not set up for this installation: start Chopin with --github-client-id (or CHOPIN_GITHUB_CLIENT_ID) naming the Chopin GitHub App.",
      );
    }
    return this.#store;
  }

  /**
   * The typed error for a failed GitHub call. A 401 means GitHub no longer takes the access token: one refresh is
   * tried (an access token can expire before its timed refresh), and when that cannot help the sign-in ends, so the
   * account says "signed out" with the reason instead of "Signed in as ..." (UX audit).
   */
  #failed(error: unknown): unknown {
    if (error instanceof GitHubRequestError && error.kind === "unauthorized") void this.#tokenRejected();
    return toChopinError(error);
  }

  async #tokenRejected(): Promise<void> {
    const store = this.#store;
    const held = store?.current();
    if (!store || !held) return;
    // A supplied token has no refresh token: nothing to ask GitHub, the sign-in has simply ended.
    if (held.origin !== "supplied-token") {
      try {
        await store.refresh();
        return;
      } catch {
        // No refresh token, or refused (which signed out already).
      }
    }
    if (store.current()?.revision === held.revision) await store.signOut("token-rejected");
  }

  #requireSignedIn(): GitHubRest {
    const store = this.#store;
    if (store?.current()) return this.#rest!;
    this.#requireDeviceFlow();
    throw new ChopinError("unauthorized", "Sign in with GitHub to see your repositories.", { reason: "signed-out" });
  }

  #cancelFlow(): void {
    const flow = this.#flow;
    this.#flow = null;
    flow?.flow?.cancel();
  }

  /** Best effort: the display name and avatar GitHub shows; the sign-in stands without them. */
  async #loadProfile(revision: number): Promise<void> {
    try {
      const { data: user } = await this.#rest!.octokit.rest.users.getAuthenticated();
      if (this.#store?.revision !== revision) return;
      const avatar = typeof user.avatar_url === "string" && /^https:\/\//.test(user.avatar_url) ? user.avatar_url : undefined;
      this.#profile = { ...(user.name ? { name: String(user.name) } : {}), ...(avatar ? { avatarUrl: avatar } : {}) };
      this.#announce();
    } catch {
      // Shown without a picture; the login is enough to know who is signed in.
    }
  }

  #announce(): void {
    this.#onState(this.state());
  }
}
