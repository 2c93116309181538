import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_REPOSITORY_TREE_ENTRIES, REPOSITORY_TREE_DEFAULT_ENTRIES } from "../../util/limits.js";
import { PLANETS } from "../../../test-support/fake-github/fixtures.js";
import { listRepositoryTree } from "./list-repository-tree.js";
import { PATH_ESCAPE_CORPUS } from "./path-escape-corpus.js";
import { startToolHarness, WIDE_FILES, type ToolHarness } from "./tool-test-context.js";

let h: ToolHarness;
beforeAll(async () => {
  h = await startToolHarness();
});
afterAll(() => h.fake.close());

describe("list_repository_tree", () => {
  it("lists nested folders under a prefix with types and sizes", async () => {
    const r = await listRepositoryTree(h.planets, { prefix: "src/" });
    const size = (path: string) => h.fake.state.repoById(PLANETS.id)!.commits.get(h.planets.pin.commitSha)!.files.get(path)!.length;
    expect(r.ok && r.value.entries).toEqual([
      { path: "src/index.ts", type: "file", size: size("src/index.ts") },
      { path: "src/lib", type: "directory" },
      { path: "src/lib/deep", type: "directory" },
      { path: "src/lib/deep/nested", type: "directory" },
      { path: "src/lib/deep/nested/moons.ts", type: "file", size: size("src/lib/deep/nested/moons.ts") },
      { path: "src/lib/orbit.ts", type: "file", size: size("src/lib/orbit.ts") },
    ]);
    expect(r.ok && r.value.truncated).toBe(false);
  });

  it("returns 200 by default, accepts 500, refuses 501, and flags truncation", async () => {
    const def = await listRepositoryTree(h.wide, {});
    expect(def.ok && def.value.entries).toHaveLength(REPOSITORY_TREE_DEFAULT_ENTRIES);
    expect(def.ok && def.value.truncated).toBe(true);
    const max = await listRepositoryTree(h.wide, { limit: MAX_REPOSITORY_TREE_ENTRIES });
    expect(max.ok && max.value.entries).toHaveLength(MAX_REPOSITORY_TREE_ENTRIES);
    expect(await listRepositoryTree(h.wide, { limit: MAX_REPOSITORY_TREE_ENTRIES + 1 })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(await listRepositoryTree(h.wide, { limit: 0 })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(WIDE_FILES).toBeGreaterThan(MAX_REPOSITORY_TREE_ENTRIES);
  });

  it("passes GitHub's own truncation through", async () => {
    h.fake.state.fixtures.treeTruncateAt = 3;
    try {
      const r = await listRepositoryTree(h.planets, {});
      expect(r.ok && r.value).toMatchObject({ truncated: true });
      expect(r.ok && r.value.entries).toHaveLength(3);
    } finally {
      h.fake.state.fixtures.treeTruncateAt = 100_000;
    }
  });

  it("refuses escaping prefixes and unknown keys; reports a missing prefix", async () => {
    for (const prefix of PATH_ESCAPE_CORPUS.filter((p) => p !== "" && p !== "src/lib/")) {
      expect(await listRepositoryTree(h.planets, { prefix }), JSON.stringify(prefix)).toMatchObject({ ok: false, error: { code: "invalid-path" } });
    }
    expect(await listRepositoryTree(h.planets, { prefix: "nope" })).toMatchObject({ ok: false, error: { code: "not-found" } });
    expect(await listRepositoryTree(h.planets, { owner: "x" })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
  });

  it("lists the pinned tree while the branch moves", async () => {
    const ctx = await h.contextFor(PLANETS.id);
    h.fake.state.push(PLANETS.id, "main", { "added-later.md": "new\n" }, "later");
    const r = await listRepositoryTree(ctx, {});
    expect(r.ok && r.value.entries.some((e) => e.path === "added-later.md")).toBe(false);
    const fresh = await listRepositoryTree(await h.contextFor(PLANETS.id), {});
    expect(fresh.ok && fresh.value.entries.some((e) => e.path === "added-later.md")).toBe(true);
  });
});
