/**
 * The fake GitHub's mutable world: fixtures plus what tests change while it runs (device approvals, issued and
 * revoked tokens, memberships, pushes that move a branch, renames, installation access, injected failures) and a log
 * of requests so tests can tell a cache hit from a call. Plain TypeScript: usable from vitest, Playwright and the CLI.
 */
import { makeCommit, type FakeCommit, type FileChanges } from "./git-model.js";
import { defaultFixtures, type FakeFixtures, type FakeRepo, type RepoPermission } from "./fixtures.js";

export type FakeFailure =
  | { kind: "status"; status: number; message?: string }
  | { kind: "unauthorized" }
  | { kind: "rate-limit"; status?: 403 | 429; resetEpochSeconds?: number }
  | { kind: "slow"; delayMs: number };

export interface InjectOptions {
  /** Only requests whose path (without query) starts with this are affected; all API requests when absent. */
  pathPrefix?: string;
  /** How many matching requests fail; until removed when absent. */
  times?: number;
}

export interface InjectedFailure {
  id: number;
  failure: FakeFailure;
  pathPrefix?: string;
  remaining: number;
}

export interface DeviceAuthorization {
  deviceCode: string;
  userCode: string;
  status: "pending" | "approved" | "denied" | "expired" | "consumed";
  login?: string;
  slowDownNext: boolean;
}

export interface IssuedToken {
  login: string;
  /** Epoch ms; undefined for fixture tokens that never expire. */
  expiresAt?: number;
  revoked: boolean;
  /** A personal access token with an expiry: API answers name it in GitHub-Authentication-Token-Expiration. */
  announcesExpiry?: boolean;
}

export interface RequestRecord {
  method: string;
  path: string;
  query: string;
  authorization: string | null;
}

export class FakeGitHubState {
  readonly fixtures: FakeFixtures;
  readonly tokens = new Map<string, IssuedToken>();
  readonly refreshTokens = new Map<string, { login: string; used: boolean }>();
  readonly devices = new Map<string, DeviceAuthorization>();
  readonly failures: InjectedFailure[] = [];
  readonly requests: RequestRecord[] = [];
  /** When set, code search also returns these foreign hits (to prove clients post-filter by node id). */
  searchLeaks: { repoId: number; path: string; fakeNodeId?: string; fakeFullName?: string }[] = [];
  #seq = 0;

  constructor(fixtures: FakeFixtures = defaultFixtures()) {
    this.fixtures = fixtures;
    for (const [token, login] of Object.entries(fixtures.tokens)) this.tokens.set(token, { login, revoked: false });
  }

  nextId(): number {
    return ++this.#seq;
  }

  inject(failure: FakeFailure, options: InjectOptions = {}): InjectedFailure {
    const entry: InjectedFailure = { id: this.nextId(), failure, pathPrefix: options.pathPrefix, remaining: options.times ?? Infinity };
    this.failures.push(entry);
    return entry;
  }

  removeFailure(id: number): void {
    const i = this.failures.findIndex((f) => f.id === id);
    if (i >= 0) this.failures.splice(i, 1);
  }

  clearFailures(): void {
    this.failures.length = 0;
  }

  /** Consumes and returns the first injected failure matching this path, if any. */
  takeFailure(path: string): FakeFailure | null {
    const entry = this.failures.find((f) => f.remaining > 0 && (!f.pathPrefix || path.startsWith(f.pathPrefix)));
    if (!entry) return null;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.removeFailure(entry.id);
    return entry.failure;
  }

  /** Number of logged requests whose path starts with prefix. */
  countRequests(prefix: string): number {
    return this.requests.filter((r) => r.path.startsWith(prefix)).length;
  }

  user(login: string) {
    return this.fixtures.users.find((u) => u.login.toLowerCase() === login.toLowerCase()) ?? null;
  }

  /** The login a bearer token stands for, or null when unknown, revoked or expired. */
  loginForToken(token: string, now = Date.now()): string | null {
    const t = this.tokens.get(token);
    if (!t || t.revoked) return null;
    if (t.expiresAt !== undefined && t.expiresAt <= now) return null;
    return t.login;
  }

  issueTokens(login: string): { accessToken: string; refreshToken: string; expiresIn: number; refreshExpiresIn: number } {
    const n = this.nextId();
    const accessToken = `ghu_issued_${login}_${n}`;
    const refreshToken = `ghr_issued_${login}_${n}`;
    const expiresIn = this.fixtures.accessTokenLifetimeSeconds;
    this.tokens.set(accessToken, { login, expiresAt: Date.now() + expiresIn * 1000, revoked: false });
    this.refreshTokens.set(refreshToken, { login, used: false });
    return { accessToken, refreshToken, expiresIn, refreshExpiresIn: this.fixtures.refreshTokenLifetimeSeconds };
  }

  /** A personal access token as a person would paste one (CHOPIN_GITHUB_TOKEN); with expiresAt, answers announce it. */
  issuePersonalToken(login: string, options: { expiresAt?: number } = {}): string {
    const token = `github_pat_${login}_${this.nextId()}`;
    this.tokens.set(token, { login, revoked: false, ...(options.expiresAt !== undefined ? { expiresAt: options.expiresAt, announcesExpiry: true } : {}) });
    return token;
  }

  revokeToken(token: string): void {
    const t = this.tokens.get(token);
    if (t) t.revoked = true;
  }

  startDevice(): DeviceAuthorization {
    const n = this.nextId();
    const userCode = `FAKE-${String(n).padStart(4, "0")}`;
    const device: DeviceAuthorization = { deviceCode: `device-${n}`, userCode, status: "pending", slowDownNext: false };
    this.devices.set(device.deviceCode, device);
    return device;
  }

  deviceByUserCode(userCode: string): DeviceAuthorization {
    const d = [...this.devices.values()].find((x) => x.userCode === userCode);
    if (!d) throw new Error(`fake GitHub: no device authorization with user code ${userCode}`);
    return d;
  }

  approveDevice(userCode: string, login: string): void {
    const d = this.deviceByUserCode(userCode);
    d.status = "approved";
    d.login = login;
  }

  denyDevice(userCode: string): void {
    this.deviceByUserCode(userCode).status = "denied";
  }

  expireDevice(userCode: string): void {
    this.deviceByUserCode(userCode).status = "expired";
  }

  slowDownDevice(userCode: string): void {
    this.deviceByUserCode(userCode).slowDownNext = true;
  }

  setMembership(login: string, org: string, state: "active" | "pending" | null): void {
    const m = (this.fixtures.memberships[login] ??= {});
    if (state === null) delete m[org];
    else m[org] = state;
  }

  membership(login: string, org: string): "active" | "pending" | null {
    const m = this.fixtures.memberships[login] ?? {};
    const key = Object.keys(m).find((k) => k.toLowerCase() === org.toLowerCase());
    return key ? m[key] : null;
  }

  repoById(id: number): FakeRepo | null {
    return this.fixtures.repos.find((r) => r.id === id) ?? null;
  }

  repoByName(owner: string, name: string): FakeRepo | null {
    return (
      this.fixtures.repos.find((r) => r.owner.toLowerCase() === owner.toLowerCase() && r.name.toLowerCase() === name.toLowerCase()) ??
      null
    );
  }

  /** The commit a branch name or full SHA names, or null. */
  resolveRef(repo: FakeRepo, ref: string): FakeCommit | null {
    const sha = repo.branches[ref] ?? ref;
    return repo.commits.get(sha) ?? null;
  }

  /** Commits on top of a branch (moving it) and returns the new head SHA. */
  push(repoId: number, branch: string, changes: FileChanges, message: string): string {
    const repo = this.repoById(repoId);
    if (!repo) throw new Error(`fake GitHub: no repository ${repoId}`);
    const parent = this.resolveRef(repo, branch);
    const n = this.nextId();
    const commit = makeCommit(parent, changes, message, {
      name: "Pusher",
      email: "pusher@example.test",
      date: new Date(Date.UTC(2025, 1, 1, 0, 0, n)).toISOString(),
    });
    repo.commits.set(commit.sha, commit);
    repo.branches[branch] = commit.sha;
    return commit.sha;
  }

  /** Renames or transfers a repository; its id and node id stay, like GitHub's. */
  renameRepo(repoId: number, owner: string, name: string): void {
    const repo = this.repoById(repoId);
    if (!repo) throw new Error(`fake GitHub: no repository ${repoId}`);
    repo.owner = owner;
    repo.name = name;
  }

  setCollaborator(repoId: number, login: string, permission: RepoPermission): void {
    const repo = this.repoById(repoId);
    if (!repo) throw new Error(`fake GitHub: no repository ${repoId}`);
    repo.collaborators[login] = permission;
  }

  setInstallationRepositories(installationId: number, repositoryIds: number[]): void {
    const inst = this.fixtures.installations.find((i) => i.id === installationId);
    if (!inst) throw new Error(`fake GitHub: no installation ${installationId}`);
    inst.repositoryIds = [...repositoryIds];
  }

  removeInstallation(installationId: number): void {
    const i = this.fixtures.installations.findIndex((x) => x.id === installationId);
    if (i >= 0) this.fixtures.installations.splice(i, 1);
  }

  /** Can this login read the repository through the App (installed on it, and the user may see it)? */
  canRead(login: string, repo: FakeRepo): boolean {
    const installed = this.fixtures.installations.some((i) => i.repositoryIds.includes(repo.id));
    const perm = repo.collaborators[login];
    return installed && (!repo.private || (perm !== undefined && perm !== "none"));
  }
}
