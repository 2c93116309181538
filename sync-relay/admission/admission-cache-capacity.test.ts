/**
 * Edge tests for MAX_GITHUB_ADMISSION_CACHE_ENTRIES with the real constant: the cache holds exactly that many token
 * hashes and evicts the oldest on one more, and the relay's admission is built with that capacity (a token verified
 * first is still served from the cache after capacity - 1 others, and is asked about again after capacity others).
 */
import { describe, expect, it } from "vitest";
import { MAX_GITHUB_ADMISSION_CACHE_ENTRIES } from "../limits.js";
import { tokenHash, TtlCache } from "./admission-cache.js";
import { createGitHubAdmission } from "./github-admission.js";

describe("admission cache capacity", () => {
  it("holds exactly the capacity and evicts the oldest one past it", () => {
    const c = new TtlCache<number>(30_000, MAX_GITHUB_ADMISSION_CACHE_ENTRIES, () => 0);
    for (let i = 0; i < MAX_GITHUB_ADMISSION_CACHE_ENTRIES; i++) c.set(tokenHash(`ghu_${i}`), i);
    expect(c.size).toBe(MAX_GITHUB_ADMISSION_CACHE_ENTRIES);
    expect(c.get(tokenHash("ghu_0"))).toBe(0);
    expect(c.get(tokenHash(`ghu_${MAX_GITHUB_ADMISSION_CACHE_ENTRIES - 1}`))).toBe(MAX_GITHUB_ADMISSION_CACHE_ENTRIES - 1);

    c.set(tokenHash("ghu_extra"), -1);
    expect(c.size).toBe(MAX_GITHUB_ADMISSION_CACHE_ENTRIES);
    expect(c.get(tokenHash("ghu_0"))).toBeUndefined();
    expect(c.get(tokenHash("ghu_1"))).toBe(1);
    expect(c.get(tokenHash("ghu_extra"))).toBe(-1);
  });

  // GitHub's /user answered in-process through the admission's fetch option: 10,000 loopback round trips would only add time.
  function admissionCountingCalls() {
    const calls = new Map<string, number>();
    const fetchUser = (async (_url: string | URL | Request, init?: RequestInit) => {
      const token = String(new Headers(init?.headers).get("authorization")).replace(/^Bearer /, "");
      calls.set(token, (calls.get(token) ?? 0) + 1);
      return new Response(JSON.stringify({ login: token.replace(/^ghu_/, "user-") }), { status: 200, headers: { "content-type": "application/json" } });
    }) as typeof fetch;
    const admission = createGitHubAdmission({ apiBaseUrl: "http://github.invalid", allowedUsers: [], allowedOrganizations: [], fetch: fetchUser, now: () => 0 });
    return { admission, calls };
  }

  it("the relay's admission keeps the first token cached through exactly the capacity", async () => {
    const { admission, calls } = admissionCountingCalls();
    for (let i = 0; i < MAX_GITHUB_ADMISSION_CACHE_ENTRIES; i++) await admission.verify(`ghu_${i}`);
    expect(await admission.verify("ghu_0")).toEqual({ ok: true, login: "user-0" });
    expect(calls.get("ghu_0")).toBe(1);
  }, 30_000);

  it("the relay's admission asks again about the first token once one more has been cached", async () => {
    const { admission, calls } = admissionCountingCalls();
    for (let i = 0; i <= MAX_GITHUB_ADMISSION_CACHE_ENTRIES; i++) await admission.verify(`ghu_${i}`);
    expect(await admission.verify("ghu_0")).toEqual({ ok: true, login: "user-0" });
    expect(calls.get("ghu_0")).toBe(2);
    // The newest entry is still served from the cache.
    expect(await admission.verify(`ghu_${MAX_GITHUB_ADMISSION_CACHE_ENTRIES}`)).toMatchObject({ ok: true });
    expect(calls.get(`ghu_${MAX_GITHUB_ADMISSION_CACHE_ENTRIES}`)).toBe(1);
  }, 30_000);
});
