import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_REPOSITORY_SEARCH_RESULTS, MAX_REPOSITORY_SEARCH_TERMS_CHARS, REPOSITORY_SEARCH_DEFAULT_RESULTS } from "../../util/limits.js";
import { ELSEWHERE, PLANETS } from "../../../test-support/fake-github/fixtures.js";
import { checkSearchTerms, searchRepository } from "./search-repository.js";
import { startToolHarness, type ToolHarness } from "./tool-test-context.js";

let h: ToolHarness;
beforeAll(async () => {
  h = await startToolHarness();
});
afterAll(() => h.fake.close());
beforeEach(() => {
  h.fake.state.searchLeaks = [];
});

describe("search_repository", () => {
  it("finds code in the bound repository with a repo: query built on our side", async () => {
    const r = await searchRepository(h.planets, { terms: "orbit" });
    expect(r.ok && r.value.results.map((x) => x.path).sort()).toEqual(["docs/guide/intro.md", "src/index.ts", "src/lib/orbit.ts"]);
    expect(r.ok && r.value.results.find((x) => x.path === "src/lib/orbit.ts")?.fragments[0]).toContain("orbit");
    const last = h.fake.state.requests.filter((q) => q.path === "/search/code").at(-1)!;
    expect(new URLSearchParams(last.query).get("q")).toBe("orbit repo:octo-org/planets");
  });

  it("drops results from any other repository, including a namesake with another node id", async () => {
    h.fake.state.searchLeaks = [
      { repoId: ELSEWHERE.id, path: "src/lib/orbit.ts" },
      { repoId: ELSEWHERE.id, path: "src/lib/orbit.ts", fakeFullName: "octo-org/planets" },
    ];
    const r = await searchRepository(h.planets, { terms: "orbit" });
    expect(r.ok && r.value.filteredOut).toBe(2);
    expect(r.ok && r.value.results).toHaveLength(3);
  });

  it("refuses qualifiers that would leave the repository", async () => {
    for (const terms of ["orbit repo:other-org/elsewhere", "REPO:x/y", "orbit -repo:octo-org/planets", "(org:github)", "user:alice orbit", "owner:x", "orbit OR repo:a/b", "fork:true x", "is:public x", "x\u00a0repo:a/b", '"x" repository:a/b', "enterprise:e x"]) {
      expect(await searchRepository(h.planets, { terms }), terms).toMatchObject({ ok: false, error: { code: "out-of-scope" } });
    }
    expect(checkSearchTerms("path:src language:typescript orbit")).toBeNull();
    expect(checkSearchTerms("std::vector")).toBeNull();
  });

  it("accepts terms of exactly 200 characters and refuses 201; refuses empty and control characters", async () => {
    const at = "a".repeat(MAX_REPOSITORY_SEARCH_TERMS_CHARS);
    expect((await searchRepository(h.planets, { terms: at })).ok).toBe(true);
    expect(await searchRepository(h.planets, { terms: at + "a" })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(await searchRepository(h.planets, { terms: "   " })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(await searchRepository(h.planets, { terms: "a\u0000b" })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
  });

  it("returns 20 by default, accepts 50, refuses 51", async () => {
    const def = await searchRepository(h.wide, { terms: "needle" });
    expect(def.ok && def.value.results).toHaveLength(REPOSITORY_SEARCH_DEFAULT_RESULTS);
    const max = await searchRepository(h.wide, { terms: "needle", limit: MAX_REPOSITORY_SEARCH_RESULTS });
    expect(max.ok && max.value.results).toHaveLength(MAX_REPOSITORY_SEARCH_RESULTS);
    expect(await searchRepository(h.wide, { terms: "needle", limit: MAX_REPOSITORY_SEARCH_RESULTS + 1 })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
  });

  it("takes owner and repository only from the binding", async () => {
    expect(await searchRepository(h.planets, { terms: "orbit", repo: "other-org/elsewhere" })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(PLANETS.name).toBe("planets");
  });
});
