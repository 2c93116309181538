import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChopinError } from "../../shared/errors.js";
import { GITHUB_DEVICE_FLOW_MIN_INTERVAL_MS, GITHUB_TOKEN_REFRESH_LEAD_MS, GITHUB_TOKEN_REFRESH_RETRY_MS } from "../util/limits.js";
import { startFakeGitHub, type FakeGitHub } from "../../test-support/fake-github/server.js";
import { ManualClock } from "./clock.js";
import { CredentialStore, type CredentialEvents, type CredentialStoreOptions } from "./credentials.js";
import { createPermissionFacts } from "./permission-facts.js";
import { createGitHubRest } from "./rest-client.js";
import { createPlaintextFileVault } from "./secret-vault.js";
import { waitFor } from "../../shared/wait-for.js";

let fake: FakeGitHub;
let clock: ManualClock;
let store: CredentialStore;

beforeEach(async () => {
  fake = await startFakeGitHub();
  clock = new ManualClock();
  store = new CredentialStore({ clientId: fake.state.fixtures.clientId, webBaseUrl: fake.url, apiBaseUrl: fake.url, clock });
});
afterEach(async () => {
  store.dispose();
  await fake.close();
});

const tokenPolls = () => fake.state.countRequests("/login/oauth/access_token");

/** Waits until `polls` token requests were answered "pending" and the next poll is armed. */
async function pendingAfter(polls: number) {
  await waitFor(() => tokenPolls() === polls && clock.pendingTimers() === 1, `poll ${polls} settled`);
}

async function signIn(login = "alice") {
  const flow = await store.startDeviceFlow();
  const done = flow.wait();
  fake.state.approveDevice(flow.userCode, login);
  clock.advance(flow.interval * 1000);
  return done;
}

describe("device-flow sign-in", () => {
  it("shows the code and the verification address, waits while pending, and signs in on approval", async () => {
    const flow = await store.startDeviceFlow();
    expect(flow.userCode).toMatch(/^FAKE-\d{4}$/);
    expect(flow.verificationUri).toBe(`${fake.url}/login/device`);
    expect(flow.interval).toBe(5);
    const done = flow.wait();
    clock.advance(5000);
    await pendingAfter(1); // the first poll found the authorization pending
    expect(store.current()).toBeNull();
    fake.state.approveDevice(flow.userCode, "alice");
    clock.advance(5000);
    const identity = await done;
    expect(tokenPolls()).toBe(2);
    expect(identity).toEqual({ login: "alice", id: 1, name: "Alice Example" });
    expect(store.revision).toBe(1);
    const cred = store.current()!;
    expect(cred.expiresAt).toBe(clock.now() + 8 * 3600 * 1000);
    const rest = createGitHubRest({ apiBaseUrl: fake.url, token: store.token });
    expect((await rest.octokit.rest.users.getAuthenticated()).data).toMatchObject({ login: "alice" });
  });

  it("slows down when GitHub says slow_down", async () => {
    const flow = await store.startDeviceFlow();
    const done = flow.wait();
    fake.state.slowDownDevice(flow.userCode);
    clock.advance(5000);
    await waitFor(() => tokenPolls() === 1 && clock.pendingTimers() === 1, "tokenPolls() === 1 && clock.pendingTimers() === 1");
    expect(clock.nextTimerAt()! - clock.now()).toBe(10_000);
    fake.state.approveDevice(flow.userCode, "bob");
    clock.advance(10_000);
    expect((await done).login).toBe("bob");
  });

  it("rejects with a typed reason when declined, expired or cancelled", async () => {
    const denied = await store.startDeviceFlow();
    fake.state.denyDevice(denied.userCode);
    const d = denied.wait();
    clock.advance(5000);
    await expect(d).rejects.toMatchObject({ code: "unauthorized", details: { reason: "denied" } });

    const expired = await store.startDeviceFlow();
    const e = expired.wait();
    clock.advance(5000);
    await pendingAfter(2); // pending at its first poll
    clock.advance(expired.expiresIn * 1000); // the next poll falls after the code's deadline
    await expect(e).rejects.toMatchObject({ code: "unauthorized", details: { reason: "expired" } });
    expect(clock.pendingTimers()).toBe(0); // nothing keeps polling after expiry

    const cancelled = await store.startDeviceFlow();
    const c = cancelled.wait();
    cancelled.cancel();
    await expect(c).rejects.toBeInstanceOf(ChopinError);
    expect(store.current()).toBeNull();
  });

  it("polls no faster than GITHUB_DEVICE_FLOW_MIN_INTERVAL_MS even when GitHub asks for less; a longer interval is kept", async () => {
    const minSeconds = GITHUB_DEVICE_FLOW_MIN_INTERVAL_MS / 1000;
    fake.state.fixtures.deviceIntervalSeconds = minSeconds - 1;
    const fast = await store.startDeviceFlow();
    expect(fast.interval).toBe(minSeconds);
    expect(clock.nextTimerAt()! - clock.now()).toBe(GITHUB_DEVICE_FLOW_MIN_INTERVAL_MS);
    fast.cancel();
    fake.state.fixtures.deviceIntervalSeconds = minSeconds + 1;
    const slow = await store.startDeviceFlow();
    expect(slow.interval).toBe(minSeconds + 1);
    expect(clock.nextTimerAt()! - clock.now()).toBe(GITHUB_DEVICE_FLOW_MIN_INTERVAL_MS + 1000);
    const done = slow.wait();
    clock.advance(GITHUB_DEVICE_FLOW_MIN_INTERVAL_MS + 999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(tokenPolls()).toBe(0);
    fake.state.approveDevice(slow.userCode, "alice");
    clock.advance(1);
    expect((await done).login).toBe("alice");
    expect(tokenPolls()).toBe(1);
  });

  it("refuses an unknown client id", async () => {
    const other = new CredentialStore({ clientId: "Iv1.nope", webBaseUrl: fake.url, apiBaseUrl: fake.url, clock });
    await expect(other.startDeviceFlow()).rejects.toMatchObject({ kind: "not-found" });
  });
});

describe("refresh and revisions", () => {
  it("refreshes exactly REFRESH_LEAD before expiry and bumps the credential revision", async () => {
    await signIn();
    const first = store.current()!;
    const refreshed: CredentialEvents["refreshed"][] = [];
    const order: string[] = [];
    store.on("refreshing", ({ revision }) => order.push(`refreshing ${revision} (current ${store.revision})`));
    store.on("refreshed", (e) => (refreshed.push(e), order.push(`refreshed ${e.revision}`)));
    const dueIn = first.expiresAt! - GITHUB_TOKEN_REFRESH_LEAD_MS - clock.now();
    clock.advance(dueIn - 1);
    expect(tokenPolls()).toBe(1); // only the sign-in poll so far
    clock.advance(1);
    await waitFor(() => store.revision === 2, "refresh");
    const second = store.current()!;
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.revision).toBe(2);
    expect(refreshed).toEqual([{ revision: 2, expiresAt: second.expiresAt }]);
    // Told before the refresh is asked for, while revision 1 is still the one held.
    expect(order).toEqual(["refreshing 1 (current 1)", "refreshed 2"]);
    // The next refresh is armed for the new token's lead time.
    expect(clock.nextTimerAt()).toBe(second.expiresAt! - GITHUB_TOKEN_REFRESH_LEAD_MS);
  });

  it("retries after a GitHub outage during refresh, then succeeds", async () => {
    await signIn();
    const failures: CredentialEvents["refresh-failed"][] = [];
    store.on("refresh-failed", (e) => failures.push(e));
    const remove = fake.inject({ kind: "status", status: 502 }, { pathPrefix: "/login/oauth/access_token" });
    clock.advance(store.current()!.expiresAt! - GITHUB_TOKEN_REFRESH_LEAD_MS - clock.now());
    await waitFor(() => failures.length === 1, "refresh failure");
    expect(store.revision).toBe(1);
    expect(failures[0].retryAt).toBe(clock.now() + GITHUB_TOKEN_REFRESH_RETRY_MS);
    remove();
    clock.advance(GITHUB_TOKEN_REFRESH_RETRY_MS);
    await waitFor(() => store.revision === 2, "retried refresh");
  });

  it("signs out when GitHub rejects the refresh token", async () => {
    await signIn();
    const signedOut: CredentialEvents["signed-out"][] = [];
    store.on("signed-out", (e) => signedOut.push(e));
    for (const r of fake.state.refreshTokens.values()) r.used = true;
    await expect(store.refresh()).rejects.toMatchObject({ code: "unauthorized" });
    expect(store.current()).toBeNull();
    expect(signedOut).toEqual([{ reason: "refresh-rejected", login: "alice", origin: "device-flow" }]);
  });

  it("sign-out clears everything, announces it, and a refresh answer arriving later is ignored", async () => {
    await signIn();
    const signedOut: CredentialEvents["signed-out"][] = [];
    store.on("signed-out", (e) => signedOut.push(e));
    const remove = fake.inject({ kind: "slow", delayMs: 300 }, { pathPrefix: "/login/oauth/access_token", times: 1 });
    const late = store.refresh();
    await waitFor(() => fake.state.countRequests("/login/oauth/access_token") === 2, "fake.state.countRequests(\"/login/oauth/access_token\") === 2");
    await store.signOut();
    await late;
    remove();
    expect(store.current()).toBeNull();
    expect(store.token()).toBeNull();
    expect(store.revision).toBe(1);
    expect(signedOut).toEqual([{ reason: "user", login: "alice", origin: "device-flow" }]);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("a second sign-in is a new revision", async () => {
    await signIn("alice");
    await signIn("bob");
    expect(store.revision).toBe(2);
    expect(store.current()!.identity.login).toBe("bob");
  });

  it("a session bound to the pre-refresh revision is stale after the refresh", async () => {
    await signIn();
    const rest = createGitHubRest({ apiBaseUrl: fake.url, token: store.token });
    const facts = createPermissionFacts({ credentials: store, rest, policy: { allowedUsers: [], allowedOrganizations: [] }, clock });
    const bound = store.revision;
    expect(facts.isCredentialCurrent(bound).ok).toBe(true);
    await store.refresh();
    expect(facts.isCredentialCurrent(bound)).toMatchObject({ ok: false, reason: "credential-stale" });
    expect(facts.isCredentialCurrent(store.revision).ok).toBe(true);
  });
});

describe("a supplied token (CHOPIN_GITHUB_TOKEN)", () => {
  /** A store as a host without a GitHub App client id has it: only a supplied token can sign in. */
  const tokenOnly = (options: Partial<CredentialStoreOptions> = {}) =>
    new CredentialStore({ clientId: null, webBaseUrl: fake.url, apiBaseUrl: fake.url, clock, ...options });

  it("signs in as the token's owner after GET /user, one revision step, with nothing to refresh", async () => {
    const own = tokenOnly();
    const signedIn: CredentialEvents["signed-in"][] = [];
    own.on("signed-in", (e) => signedIn.push(e));
    const token = fake.state.issuePersonalToken("alice");
    expect(await own.signInWithToken(token)).toEqual({ login: "alice", id: 1, name: "Alice Example" });
    expect(fake.state.requests.map((r) => [r.path, r.authorization])).toEqual([["/user", `Bearer ${token}`]]);
    expect(own.revision).toBe(1);
    expect(signedIn).toEqual([{ identity: { login: "alice", id: 1, name: "Alice Example" }, revision: 1 }]);
    expect(own.current()).toEqual({ accessToken: token, revision: 1, expiresAt: null, identity: { login: "alice", id: 1, name: "Alice Example" }, origin: "supplied-token" });
    // No refresh token: no timer armed, and an explicit refresh refuses without asking GitHub or ending sessions.
    expect(clock.pendingTimers()).toBe(0);
    const refreshing: unknown[] = [];
    own.on("refreshing", (e) => refreshing.push(e));
    await expect(own.refresh()).rejects.toMatchObject({ code: "unauthorized" });
    clock.advance(365 * 24 * 3600_000);
    expect(fake.state.countRequests("/login/oauth/access_token")).toBe(0);
    expect(refreshing).toEqual([]);
    expect(own.current()?.revision).toBe(1);
    own.dispose();
  });

  it("keeps the expiry GitHub names for the token (a personal access token's expiration header)", async () => {
    const expiresAt = Date.UTC(2031, 0, 2, 3, 4, 5);
    await store.signInWithToken(fake.state.issuePersonalToken("bob", { expiresAt }));
    expect(store.current()).toMatchObject({ expiresAt, origin: "supplied-token", identity: { login: "bob" } });
    expect(clock.pendingTimers()).toBe(0);
  });

  it("a token GitHub refuses (401) rejects with 'unauthorized' and holds nothing; so does an unreachable GitHub", async () => {
    const own = tokenOnly();
    const signedIn: unknown[] = [];
    own.on("signed-in", (e) => signedIn.push(e));
    await expect(own.signInWithToken("ghu_nobody")).rejects.toMatchObject({ name: "GitHubRequestError", kind: "unauthorized" });
    fake.inject({ kind: "status", status: 503 }, { pathPrefix: "/user", times: 1 });
    await expect(own.signInWithToken("ghu_alice")).rejects.toMatchObject({ kind: "unavailable" });
    const closed = await startFakeGitHub();
    const gone = closed.url;
    await closed.close();
    const unreachable = tokenOnly({ apiBaseUrl: gone });
    await expect(unreachable.signInWithToken("ghu_alice")).rejects.toMatchObject({ kind: "unavailable" });
    for (const s of [own, unreachable]) {
      expect(s.current()).toBeNull();
      expect(s.token()).toBeNull();
      expect(s.revision).toBe(0);
    }
    expect(signedIn).toEqual([]);
    own.dispose();
    unreachable.dispose();
  });

  it("is never written to the vault, even with 'stay signed in' on", async () => {
    const dir = await mkdtemp(join(tmpdir(), "chopin-supplied-"));
    try {
      const path = join(dir, "signin.json");
      const own = new CredentialStore({ clientId: fake.state.fixtures.clientId, webBaseUrl: fake.url, apiBaseUrl: fake.url, clock, staySignedIn: true, vault: createPlaintextFileVault({ path, explicitPlaintextConsent: true }) });
      await own.signInWithToken("ghu_alice");
      await own.flushVault();
      expect(existsSync(path)).toBe(false);
      await own.setStaySignedIn(true);
      await own.flushVault();
      expect(existsSync(path)).toBe(false);
      expect(await readdir(dir)).toEqual([]);
      own.dispose();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("sign-out forgets it and says it was a supplied token; a sign-out during the check wins", async () => {
    const own = tokenOnly();
    const signedOut: CredentialEvents["signed-out"][] = [];
    own.on("signed-out", (e) => signedOut.push(e));
    await own.signInWithToken("ghu_alice");
    await own.signOut();
    expect(own.current()).toBeNull();
    expect(own.token()).toBeNull();
    expect(signedOut).toEqual([{ reason: "user", login: "alice", origin: "supplied-token" }]);

    fake.inject({ kind: "slow", delayMs: 200 }, { pathPrefix: "/user", times: 1 });
    const late = own.signInWithToken("ghu_bob");
    await waitFor(() => fake.state.countRequests("/user") === 2, "the second check asked");
    await own.signOut();
    await expect(late).rejects.toMatchObject({ code: "unauthorized", details: { reason: "cancelled" } });
    expect(own.current()).toBeNull();
    expect(own.revision).toBe(1);
    own.dispose();
  });

  it("without a client id there is no device flow: refused with 'not-configured', nothing sent", async () => {
    const own = tokenOnly();
    await expect(own.startDeviceFlow()).rejects.toMatchObject({ code: "not-configured" });
    expect(fake.state.requests).toEqual([]);
    own.dispose();
  });
});
