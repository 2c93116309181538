/**
 * Admission against the fake GitHub, run as its own process: sync-relay/ may import only shared/, so the test talks
 * to the fake over HTTP exactly as the relay talks to GitHub, and drives it through its /_fake/ control surface.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { useFakeGitHubProcess } from "../test-fake-github.js";
import { GITHUB_ADMISSION_CACHE_MS, MAX_GITHUB_TOKEN_CHARS } from "../limits.js";
import { createGitHubAdmission, type AdmissionResult } from "./github-admission.js";
import { startLiveReverification, type LiveGitHubConnection } from "./live-reverify.js";

const fake = useFakeGitHubProcess();
const control = fake.control;
const userCalls = async () => ((await control("requests", {}, "?prefix=/user")) as { count: number }).count;

beforeEach(() => control("clear-failures"));

const admission = (opts: { users?: string[]; orgs?: string[]; now?: () => number } = {}) =>
  createGitHubAdmission({ apiBaseUrl: fake.url(), allowedUsers: opts.users ?? [], allowedOrganizations: opts.orgs ?? ["octo-org"], now: opts.now });

describe("GitHub admission at the relay", () => {
  it("admits active members of an allowed organization and allowed users", async () => {
    expect(await admission().verify("ghu_alice")).toEqual({ ok: true, login: "alice" });
    expect(await admission({ users: ["Mallory"] }).verify("ghu_mallory")).toEqual({ ok: true, login: "mallory" });
    expect(await admission({ orgs: ["octo-org", "other-org"] }).verify("ghu_dave")).toEqual({ ok: true, login: "dave" });
  });

  it("refuses others with a clear reason and code", async () => {
    const mallory = await admission().verify("ghu_mallory");
    expect(mallory).toMatchObject({ ok: false, code: "not-admitted" });
    expect(!mallory.ok && mallory.reason).toMatch(/mallory is not an allowed user/);
    expect(await admission().verify("ghu_carol")).toMatchObject({ ok: false, code: "not-admitted" }); // membership pending
    expect(await admission({ users: ["alice"], orgs: [] }).verify("ghu_bob")).toMatchObject({ ok: false, code: "not-admitted" });
    expect(await admission().verify("ghu_forged")).toMatchObject({ ok: false, code: "invalid-token" });
    expect(await admission().verify("")).toMatchObject({ ok: false, code: "invalid-token" });
  });

  it("asks GitHub about a token of the maximum length and refuses a longer one unasked", async () => {
    const a = admission();
    const base = await userCalls();
    expect(await a.verify("t".repeat(MAX_GITHUB_TOKEN_CHARS))).toMatchObject({ ok: false, code: "invalid-token" });
    expect(await userCalls()).toBe(base + 1);
    expect(await a.verify("t".repeat(MAX_GITHUB_TOKEN_CHARS + 1))).toMatchObject({ ok: false, code: "invalid-token" });
    expect(await userCalls()).toBe(base + 1);
  });

  it("with both lists empty admits every valid GitHub user", async () => {
    expect(await admission({ users: [], orgs: [] }).verify("ghu_mallory")).toEqual({ ok: true, login: "mallory" });
  });

  it("caches answers for 30 s by token hash: served at 29,999 ms, re-asked at 30,000 ms", async () => {
    let now = 0;
    const a = admission({ now: () => now });
    await a.verify("ghu_bob");
    const base = await userCalls();
    now = GITHUB_ADMISSION_CACHE_MS - 1;
    await a.verify("ghu_bob");
    expect(await userCalls()).toBe(base);
    now = GITHUB_ADMISSION_CACHE_MS;
    await a.verify("ghu_bob");
    expect(await userCalls()).toBeGreaterThan(base);
  });

  it("shares one GitHub round trip between concurrent checks of one token", async () => {
    const a = admission();
    const base = await userCalls();
    await Promise.all([a.verify("ghu_alice"), a.verify("ghu_alice"), a.verify("ghu_alice")]);
    expect((await userCalls()) - base).toBe(2); // one GET /user and one membership lookup
  });

  it("fails closed when GitHub fails, without caching the failure", async () => {
    const a = admission();
    await control("inject", { failure: { kind: "status", status: 502 }, pathPrefix: "/user" });
    const down = await a.verify("ghu_alice");
    expect(down).toMatchObject({ ok: false, code: "github-unavailable" });
    expect(!down.ok && down.reason).toMatch(/cannot verify GitHub sign-ins right now/);
    await control("clear-failures");
    await control("inject", { failure: { kind: "rate-limit" }, pathPrefix: "/user/memberships", times: 1 });
    expect(await a.verify("ghu_alice")).toMatchObject({ ok: false, code: "github-unavailable" });
    expect(await a.verify("ghu_alice")).toEqual({ ok: true, login: "alice" });
  });

  it("times out a GitHub that never answers and refuses", async () => {
    await control("inject", { failure: { kind: "slow", delayMs: 2000 }, pathPrefix: "/user", times: 1 });
    const a = createGitHubAdmission({ apiBaseUrl: fake.url(), allowedUsers: [], allowedOrganizations: ["octo-org"], timeoutMs: 100 });
    expect(await a.verify("ghu_alice")).toMatchObject({ ok: false, code: "github-unavailable" });
  });
});

describe("live re-verification", () => {
  it("cuts off a user who lost admission, keeps the others, and keeps everyone during an outage", async () => {
    let now = 0;
    const a = admission({ now: () => now });
    const cut: { token: string; result: AdmissionResult }[] = [];
    const live: LiveGitHubConnection[] = ["ghu_alice", "ghu_bob"].map((token) => ({ token, cutOff: (result) => cut.push({ token, result }) }));
    for (const c of live) expect((await a.verify(c.token)).ok).toBe(true);
    const reverifier = startLiveReverification({ admission: a, connections: () => live, intervalMs: 3_600_000 });
    try {
      await control("membership", { login: "bob", org: "octo-org", state: null });
      now += GITHUB_ADMISSION_CACHE_MS;
      await control("inject", { failure: { kind: "status", status: 500 }, pathPrefix: "/user" });
      expect(await reverifier.runOnce()).toBe(0);
      expect(cut).toEqual([]);
      await control("clear-failures");
      expect(await reverifier.runOnce()).toBe(1);
      expect(cut).toEqual([{ token: "ghu_bob", result: expect.objectContaining({ ok: false, code: "not-admitted" }) }]);
    } finally {
      reverifier.stop();
      await control("membership", { login: "bob", org: "octo-org", state: "active" });
    }
  });
});
