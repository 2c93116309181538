import { describe, expect, it } from "vitest";
import { ChopinError } from "../../shared/errors.js";
import { GitHubRequestError } from "../../shared/github-errors.js";
import { MAX_GITHUB_SUPPLIED_TOKEN_CHARS } from "../util/limits.js";
import { checkSuppliedTokenShape, suppliedTokenRefusal } from "./supplied-token.js";

const API = "https://ghe.example/api/v3";

describe("a supplied token's shape", () => {
  it("takes printable tokens up to the bound and refuses, unsent, what cannot be one", () => {
    for (const ok of ["ghu_abc", "github_pat_11AB_cd-EF.gh", "x".repeat(MAX_GITHUB_SUPPLIED_TOKEN_CHARS)]) expect(() => checkSuppliedTokenShape(ok)).not.toThrow();
    for (const bad of ["ghu_a ghu_b", "ghu_a\nghu_b", "ghu_\u00e9", "x".repeat(MAX_GITHUB_SUPPLIED_TOKEN_CHARS + 1)]) {
      expect(() => checkSuppliedTokenShape(bad)).toThrow(expect.objectContaining({ code: "invalid-input", details: { reason: "malformed" } }));
      expect(() => checkSuppliedTokenShape(bad)).toThrow(expect.objectContaining({ message: expect.not.stringContaining("ghu_a") }));
    }
  });
});

describe("why a supplied token did not sign in", () => {
  it.each([
    [new GitHubRequestError("unauthorized", "GitHub did not accept the sign-in token.", { status: 401 }), "unauthorized", /did not accept CHOPIN_GITHUB_TOKEN \(401\)/],
    [new GitHubRequestError("forbidden", "GitHub refused access to this resource.", { status: 403 }), "forbidden", /403/],
    [new GitHubRequestError("unavailable", "GitHub could not be reached (fetch failed)."), "github-unavailable", /could not check CHOPIN_GITHUB_TOKEN .*could not be reached/],
    [new GitHubRequestError("timeout", "GitHub did not answer within 15 s."), "github-unavailable", /within 15 s/],
    [new Error("boom"), "internal", /failed unexpectedly/],
  ])("%s becomes '%s' naming the token's source and the API", (error, code, words) => {
    const refusal = suppliedTokenRefusal(error, API);
    expect(refusal).toBeInstanceOf(ChopinError);
    expect(refusal.code).toBe(code);
    expect(refusal.message).toMatch(words);
    expect(refusal.message).toContain("signed out of GitHub");
    if (code !== "internal") expect(refusal.message).toContain(API);
  });

  it("keeps a rate limit's reset time", () => {
    const resetAt = Date.UTC(2030, 0, 1);
    expect(suppliedTokenRefusal(new GitHubRequestError("rate-limited", "used up", { status: 429, resetAt }), API)).toMatchObject({ code: "github-unavailable", details: { reason: "rate-limited", resetAt } });
  });
});
