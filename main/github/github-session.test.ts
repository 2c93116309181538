import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AuthState } from "../../shared/api.js";
import { MAX_GITHUB_NODE_ID_CHARS } from "../../shared/limits.js";
import { GITHUB_TOKEN_REFRESH_LEAD_MS } from "../util/limits.js";
import { PLANETS, SOLO } from "../../test-support/fake-github/fixtures.js";
import { startFakeGitHub, type FakeGitHub } from "../../test-support/fake-github/server.js";
import { ManualClock } from "./clock.js";
import type { OsCipher } from "./secret-vault.js";
import { GitHubSession } from "./github-session.js";
import { ENCRYPTED_SIGNIN_FILE, PLAINTEXT_SIGNIN_FILE } from "./github-vault.js";
import { waitFor } from "../../shared/wait-for.js";

let fake: FakeGitHub;
let dataDir: string;
let clock: ManualClock;
const sessions: GitHubSession[] = [];

beforeEach(async () => {
  fake = await startFakeGitHub();
  dataDir = mkdtempSync(join(tmpdir(), "chopin-gh-session-"));
  clock = new ManualClock();
});
afterEach(async () => {
  for (const s of sessions.splice(0)) s.dispose();
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A reversible stand-in for the OS keychain: the bytes on disk must not contain the token text. */
function testCipher(available = true): OsCipher {
  return {
    isEncryptionAvailable: () => available,
    encryptString: (plain) => Buffer.from(Buffer.from(plain, "utf8").map((b) => b ^ 0x5a)),
    decryptString: (enc) => Buffer.from(enc.map((b) => b ^ 0x5a)).toString("utf8"),
  };
}

function open(options: { clientId?: string | null; osCipher?: OsCipher | null; suppliedToken?: string; apiBaseUrl?: string } = {}) {
  const states: AuthState[] = [];
  const session = new GitHubSession({
    config: { clientId: options.clientId === undefined ? fake.state.fixtures.clientId : options.clientId, apiBaseUrl: options.apiBaseUrl ?? fake.url, webBaseUrl: fake.url },
    dataDir,
    osCipher: options.osCipher,
    clock,
    onState: (s) => states.push(s),
    suppliedToken: options.suppliedToken,
  });
  sessions.push(session);
  return { session, states, last: () => states[states.length - 1] };
}

/** Approves the shown code at the fake as `login` and moves the clock past the next poll. */
async function approve(session: GitHubSession, login = "alice") {
  const code = session.state().deviceFlow!.userCode;
  fake.state.approveDevice(code, login);
  clock.advance(5000);
  await waitFor(() => session.state().state === "signed-in" && session.state().name, "signed in with a profile");
}

describe("GitHubSession", () => {
  it("without a client id says 'not-configured' and refuses to sign in", async () => {
    const { session } = open({ clientId: null });
    expect(session.state()).toEqual({ state: "not-configured", credentialRevision: 0, staySignedIn: false, secureStorage: false });
    await expect(session.startSignIn()).rejects.toMatchObject({ code: "not-configured", message: expect.stringContaining("--github-client-id") });
    await expect(session.listInstallations()).rejects.toMatchObject({ code: "not-configured" });
    expect(fake.state.requests).toEqual([]);
  });

  it("signs in through the device flow: code and address at once, signed-in state announced on approval", async () => {
    const { session, states } = open();
    expect(session.state()).toMatchObject({ state: "signed-out", credentialRevision: 0 });
    const started = await session.startSignIn();
    expect(started).toMatchObject({
      state: "signing-in",
      deviceFlow: { userCode: expect.stringMatching(/^FAKE-/), verificationUri: `${fake.url}/login/device`, expiresAt: clock.now() + 900_000 },
      staySignedIn: false,
    });
    expect(states.at(-1)).toEqual(started);
    await approve(session);
    const state = session.state();
    expect(state).toMatchObject({ state: "signed-in", login: "alice", name: "Alice Example", credentialRevision: 1, expiresAt: clock.now() + 8 * 3600_000 });
    expect(state.deviceFlow).toBeUndefined();
    expect(states.at(-1)).toEqual(state);
    // Memory only: nothing was saved.
    expect(readdirSync(dataDir)).toEqual([]);
    await expect(session.startSignIn()).rejects.toMatchObject({ code: "invalid-input", message: expect.stringContaining("alice") });
  });

  it("shows the new credential revision after a refresh", async () => {
    const { session, states } = open();
    await session.startSignIn();
    await approve(session);
    clock.advance(8 * 3600_000 - GITHUB_TOKEN_REFRESH_LEAD_MS);
    await waitFor(() => states.at(-1)?.credentialRevision === 2, "revision 2 announced");
    expect(session.state()).toMatchObject({ state: "signed-in", login: "alice", credentialRevision: 2 });
  });

  it("cancelling forgets the code; a late approval never signs in", async () => {
    const { session } = open();
    const { deviceFlow } = await session.startSignIn();
    const cancelled = await session.cancelSignIn();
    expect(cancelled).toMatchObject({ state: "signed-out" });
    expect(cancelled.lastError).toBeUndefined();
    fake.state.approveDevice(deviceFlow!.userCode, "alice");
    clock.advance(60_000);
    expect(fake.state.countRequests("/login/oauth/access_token")).toBe(0);
    expect(session.state().state).toBe("signed-out");
  });

  it("a declined code ends signed out with the reason", async () => {
    const { session, states } = open();
    const { deviceFlow } = await session.startSignIn();
    fake.state.denyDevice(deviceFlow!.userCode);
    clock.advance(5000);
    await waitFor(() => states.at(-1)?.state === "signed-out", "signed out");
    expect(session.state().lastError).toMatchObject({ code: "unauthorized", message: expect.stringContaining("declined") });
  });

  it("lists installations and repositories, and resolves a choice only from GitHub's own list", async () => {
    const { session } = open();
    await expect(session.listInstallations()).rejects.toMatchObject({ code: "unauthorized" });
    await session.startSignIn();
    await approve(session);
    expect(await session.listInstallations()).toEqual([
      { id: 71, account: "octo-org", accountType: "Organization" },
      { id: 73, account: "alice", accountType: "User" },
    ]);
    const repos = await session.listInstallationRepositories(71);
    expect(repos).toEqual([{ nodeId: "R_kgDO00001001", owner: PLANETS.owner, name: PLANETS.name, defaultBranch: "main", private: true }]);
    const binding = await session.resolveRepository({ installationId: 71, repositoryNodeId: repos[0].nodeId });
    expect(binding).toMatchObject({ nodeId: repos[0].nodeId, owner: "octo-org", name: "planets", defaultBranch: "main", installationId: 71, id: PLANETS.id });
    // A repository of another installation is not reachable through this one.
    await expect(session.resolveRepository({ installationId: 71, repositoryNodeId: "R_kgDO00003003" })).rejects.toMatchObject({ code: "not-found" });
    expect(SOLO.id).toBe(3003);
    await expect(session.listInstallationRepositories(72)).rejects.toMatchObject({ code: "not-found" });
    for (const bad of [0, -1, 1.5, "71", Number.MAX_SAFE_INTEGER + 1]) {
      await expect(session.listInstallationRepositories(bad as number)).rejects.toMatchObject({ code: "invalid-input" });
    }
    const atBound = "R".repeat(MAX_GITHUB_NODE_ID_CHARS);
    await expect(session.resolveRepository({ installationId: 71, repositoryNodeId: atBound })).rejects.toMatchObject({ code: "not-found" });
    await expect(session.resolveRepository({ installationId: 71, repositoryNodeId: atBound + "R" })).rejects.toMatchObject({ code: "invalid-input" });
    await expect(session.resolveRepository({ installationId: 71, repositoryNodeId: "../x" })).rejects.toMatchObject({ code: "invalid-input" });
  });

  it("a 401 from GitHub refreshes the sign-in once, and ends it (said so) when refreshing cannot help", async () => {
    const { session } = open();
    await session.startSignIn();
    await approve(session);
    const revision = session.state().credentialRevision;
    // An access token GitHub stopped taking, with a good refresh token: refreshed, still signed in.
    fake.inject({ kind: "unauthorized" }, { pathPrefix: "/user/installations", times: 1 });
    await expect(session.listInstallations()).rejects.toMatchObject({ code: "unauthorized" });
    await waitFor(() => session.state().credentialRevision > revision, "a refreshed credential");
    expect(session.state().state).toBe("signed-in");
    // Now the refresh token is spent too: the sign-in ends, and the account says why instead of "signed in".
    for (const r of fake.state.refreshTokens.values()) r.used = true;
    fake.inject({ kind: "unauthorized" }, { pathPrefix: "/user/installations", times: 1 });
    await expect(session.listInstallations()).rejects.toMatchObject({ code: "unauthorized" });
    await waitFor(() => session.state().state === "signed-out", "signed out");
    expect(session.state().lastError?.message).toMatch(/sign in again/i);
  });

  it("GitHub outages become 'github-unavailable' with a sentence", async () => {
    const { session } = open();
    await session.startSignIn();
    await approve(session);
    fake.inject({ kind: "status", status: 502 }, { pathPrefix: "/user/installations", times: 1 });
    await expect(session.listInstallations()).rejects.toMatchObject({ code: "github-unavailable", message: expect.stringContaining("502") });
  });

  it("host mode: staying signed in needs explicit consent; with it, a 0600 file restores and sign-out deletes it", async () => {
    const first = open();
    expect(first.session.state().secureStorage).toBe(false);
    await expect(first.session.startSignIn({ staySignedIn: true })).rejects.toMatchObject({
      code: "forbidden",
      details: { reason: "plaintext-consent-required" },
    });
    expect(first.session.state().state).toBe("signed-out");
    await first.session.startSignIn({ staySignedIn: true, plaintextConsent: true });
    await approve(first.session);
    const file = join(dataDir, PLAINTEXT_SIGNIN_FILE);
    await waitFor(() => existsSync(file), "the saved sign-in");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.session.state()).toMatchObject({ staySignedIn: true });
    first.session.dispose();

    const second = open();
    await second.session.restore();
    await waitFor(() => second.session.state().name, "profile after restore");
    expect(second.session.state()).toMatchObject({ state: "signed-in", login: "alice", name: "Alice Example", staySignedIn: true, credentialRevision: 1 });
    const out = await second.session.signOut();
    expect(out).toMatchObject({ state: "signed-out", staySignedIn: false });
    expect(second.states.at(-1)).toEqual(out);
    expect(existsSync(file)).toBe(false);

    // Consent was withdrawn with the sign-out: the next stay-signed-in needs it again.
    await expect(second.session.startSignIn({ staySignedIn: true })).rejects.toMatchObject({ code: "forbidden" });
  });

  it("signing in for this session only erases an earlier saved sign-in", async () => {
    const first = open();
    await first.session.startSignIn({ staySignedIn: true, plaintextConsent: true });
    await approve(first.session);
    await waitFor(() => existsSync(join(dataDir, PLAINTEXT_SIGNIN_FILE)), "existsSync(join(dataDir, PLAINTEXT_SIGNIN_FILE))");
    await first.session.signOut();
    await first.session.startSignIn({ staySignedIn: false });
    await approve(first.session);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it("with an OS cipher: saved encrypted (no token text on disk) and restored", async () => {
    const first = open({ osCipher: testCipher() });
    expect(first.session.state().secureStorage).toBe(true);
    await first.session.startSignIn({ staySignedIn: true });
    await approve(first.session);
    const file = join(dataDir, ENCRYPTED_SIGNIN_FILE);
    await waitFor(() => existsSync(file), "the encrypted sign-in");
    expect(readFileSync(file).toString("utf8")).not.toContain("ghu_");
    expect(existsSync(join(dataDir, PLAINTEXT_SIGNIN_FILE))).toBe(false);
    first.session.dispose();

    const second = open({ osCipher: testCipher() });
    await second.session.restore();
    expect(second.session.state()).toMatchObject({ state: "signed-in", login: "alice", staySignedIn: true });

    // Where the OS cannot decrypt any more, nothing is restored and nothing breaks.
    const third = open({ osCipher: testCipher(false) });
    await third.session.restore();
    expect(third.session.state()).toMatchObject({ state: "signed-out", secureStorage: false });
  });

  it("a saved file readable by others is refused at launch, with the reason shown", async () => {
    const first = open();
    await first.session.startSignIn({ staySignedIn: true, plaintextConsent: true });
    await approve(first.session);
    const file = join(dataDir, PLAINTEXT_SIGNIN_FILE);
    await waitFor(() => existsSync(file), "existsSync(file)");
    first.session.dispose();
    const { chmodSync } = await import("node:fs");
    chmodSync(file, 0o644);
    const second = open();
    await second.session.restore();
    expect(second.session.state()).toMatchObject({ state: "signed-out", lastError: { code: "forbidden", message: expect.stringContaining("readable by others") } });
  });
});

describe("GitHubSession with a supplied token (CHOPIN_GITHUB_TOKEN)", () => {
  /** Every file under the data folder, with its bytes: a supplied token must be in none of them. */
  const filesHolding = (text: string) => readdirSync(dataDir, { recursive: true, encoding: "utf8" }).filter((f) => {
    const path = join(dataDir, f);
    return statSync(path).isFile() && readFileSync(path).includes(text);
  });

  it("signs in without a client id, announced with the revision; no device flow; sign-out forgets it for good", async () => {
    const token = fake.state.issuePersonalToken("alice");
    const { session, states } = open({ clientId: null, suppliedToken: token });
    await session.restore();
    await waitFor(() => session.state().name, "the profile");
    const state = session.state();
    expect(state).toMatchObject({ state: "signed-in", login: "alice", name: "Alice Example", credentialRevision: 1, staySignedIn: false, suppliedToken: true });
    expect(state.lastError).toBeUndefined();
    expect(states.find((s) => s.state === "signed-in")).toMatchObject({ login: "alice", credentialRevision: 1 });
    expect(session.credentials?.token()).toBe(token);
    expect(await session.listInstallations()).toEqual([
      { id: 71, account: "octo-org", accountType: "Organization" },
      { id: 73, account: "alice", accountType: "User" },
    ]);
    // Memory only: nothing in the data folder, no device flow without a client id.
    expect(readdirSync(dataDir)).toEqual([]);
    await expect(session.startSignIn()).rejects.toMatchObject({ code: "not-configured" });
    expect(fake.state.countRequests("/login/")).toBe(0);

    const out = await session.signOut();
    expect(out).toMatchObject({ state: "not-configured", credentialRevision: 1 });
    expect(out.lastError).toBeUndefined();
    expect(states.at(-1)).toEqual(out);
    expect(session.credentials?.token()).toBeNull();
    // Used once: launching's restore does not bring it back.
    await session.restore();
    expect(session.state()).toMatchObject({ state: "not-configured" });
    await expect(session.listInstallations()).rejects.toMatchObject({ code: "not-configured" });
  });

  it("a token GitHub refuses: signed out with a sentence naming CHOPIN_GITHUB_TOKEN, nothing stored", async () => {
    const { session, states } = open({ clientId: null, suppliedToken: "ghu_not_a_real_one" });
    await session.restore();
    expect(session.state()).toMatchObject({
      state: "not-configured",
      credentialRevision: 0,
      lastError: { code: "unauthorized", message: expect.stringMatching(/CHOPIN_GITHUB_TOKEN.*401/), details: { reason: "token-rejected" } },
    });
    expect(states.at(-1)).toEqual(session.state());
    expect(session.credentials?.token()).toBeNull();
    expect(readdirSync(dataDir)).toEqual([]);

    // With a client id the person can still sign in through the browser: signed out, not 'not-configured'.
    const withApp = open({ suppliedToken: "ghu_not_a_real_one" });
    await withApp.session.restore();
    expect(withApp.session.state()).toMatchObject({ state: "signed-out", lastError: { code: "unauthorized" } });
  });

  it("an unreachable GitHub, or a value that cannot be a token, is a typed error too", async () => {
    const closed = await startFakeGitHub();
    const gone = closed.url;
    await closed.close();
    const unreachable = open({ clientId: null, suppliedToken: "ghu_alice", apiBaseUrl: gone });
    await unreachable.session.restore();
    expect(unreachable.session.state()).toMatchObject({
      state: "not-configured",
      lastError: { code: "github-unavailable", message: expect.stringContaining(`CHOPIN_GITHUB_TOKEN with GitHub at ${gone}`) },
    });

    const pasted = open({ clientId: null, suppliedToken: "ghu_alice ghu_bob" });
    await pasted.session.restore();
    expect(pasted.session.state()).toMatchObject({ lastError: { code: "invalid-input", message: expect.stringContaining("does not look like a GitHub token") } });
    expect(fake.state.requests).toEqual([]);
  });

  it("wins over a saved sign-in, which stays saved and unused, and is never saved itself", async () => {
    const first = open({ osCipher: testCipher() });
    await first.session.startSignIn({ staySignedIn: true });
    await approve(first.session, "bob");
    const saved = join(dataDir, ENCRYPTED_SIGNIN_FILE);
    await waitFor(() => existsSync(saved), "the saved sign-in");
    const savedBytes = readFileSync(saved);
    first.session.dispose();

    const token = fake.state.issuePersonalToken("alice");
    const second = open({ osCipher: testCipher(), suppliedToken: token });
    await second.session.restore();
    expect(second.session.state()).toMatchObject({ state: "signed-in", login: "alice", staySignedIn: false, suppliedToken: true });
    await second.session.credentials!.flushVault();
    expect(readFileSync(saved)).toEqual(savedBytes);
    expect(filesHolding(token)).toEqual([]);
    expect(readdirSync(dataDir)).toEqual([ENCRYPTED_SIGNIN_FILE]);
  });

  it("a 401 later ends the sign-in without a refresh, and says the token is no longer accepted", async () => {
    const token = fake.state.issuePersonalToken("alice");
    const { session } = open({ suppliedToken: token });
    await session.restore();
    expect(session.state()).toMatchObject({ state: "signed-in", credentialRevision: 1 });
    fake.state.revokeToken(token);
    await expect(session.listInstallations()).rejects.toMatchObject({ code: "unauthorized" });
    await waitFor(() => session.state().state === "signed-out", "signed out");
    expect(session.state().lastError?.message).toMatch(/no longer accepts CHOPIN_GITHUB_TOKEN/);
    expect(fake.state.countRequests("/login/oauth/access_token")).toBe(0);
    expect(session.credentials?.token()).toBeNull();
  });
});
