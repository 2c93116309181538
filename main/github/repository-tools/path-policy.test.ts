import { describe, expect, it } from "vitest";
import { MAX_REPOSITORY_PATH_CHARS } from "../../util/limits.js";
import { PATH_ESCAPE_CORPUS } from "./path-escape-corpus.js";
import { checkRepositoryPath, checkRepositoryPrefix, encodeRepositoryPath } from "./path-policy.js";

const ACCEPTED = ["README.md", "src/lib/orbit.ts", "docs/guide/intro.md", ".github/workflows/ci.yml", "a b/c d.txt", "src/what?#.ts", "ünïcödé/ファイル.md", "..hidden", "x..", "a/.b"];

describe("repository path policy", () => {
  it.each(PATH_ESCAPE_CORPUS.map((p) => [JSON.stringify(p), p]))("refuses %s", (_label, path) => {
    expect(checkRepositoryPath(path).ok).toBe(false);
  });

  it.each(ACCEPTED)("accepts %s", (path) => {
    expect(checkRepositoryPath(path)).toEqual({ ok: true, path });
  });

  it("refuses non-strings", () => {
    for (const v of [undefined, null, 1, ["a"], { path: "a" }]) expect(checkRepositoryPath(v).ok).toBe(false);
  });

  it("accepts a path of exactly the maximum length and refuses one character more", () => {
    const exact = "d/".repeat(MAX_REPOSITORY_PATH_CHARS / 2 - 1) + "ff";
    expect(exact).toHaveLength(MAX_REPOSITORY_PATH_CHARS);
    expect(checkRepositoryPath(exact).ok).toBe(true);
    expect(checkRepositoryPath(exact + "z").ok).toBe(false);
  });

  it("tolerates one trailing slash on a prefix, never more", () => {
    expect(checkRepositoryPrefix("src/lib/")).toEqual({ ok: true, path: "src/lib" });
    expect(checkRepositoryPrefix("src/lib//").ok).toBe(false);
    expect(checkRepositoryPrefix("../").ok).toBe(false);
    expect(checkRepositoryPrefix("/").ok).toBe(false);
  });

  it("encodes each segment so URL syntax in names stays data", () => {
    expect(encodeRepositoryPath("src/what?#.ts")).toBe("src/what%3F%23.ts");
  });
});
