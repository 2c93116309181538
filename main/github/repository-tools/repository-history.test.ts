import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_REPOSITORY_HISTORY_COMMITS, REPOSITORY_HISTORY_DEFAULT_COMMITS } from "../../util/limits.js";
import { PLANETS } from "../../../test-support/fake-github/fixtures.js";
import { repositoryHistory } from "./repository-history.js";
import { startToolHarness, type ToolHarness } from "./tool-test-context.js";

let h: ToolHarness;
beforeAll(async () => {
  h = await startToolHarness();
});
afterAll(() => h.fake.close());

describe("repository_history", () => {
  it("returns sha, message, author and date, newest first", async () => {
    const r = await repositoryHistory(h.planets, {});
    expect(r.ok && r.value.commits.map((c) => c.message.split("\n")[0])).toEqual(["Document the orbit helper", "Add assets: a large file, a binary file, an exact-limit file", "Initial layout"]);
    expect(r.ok && r.value.commits[0]).toMatchObject({ sha: h.planets.pin.commitSha, author: "alice", date: "2025-01-01T12:00:00.000Z" });
  });

  it("filters by path", async () => {
    const r = await repositoryHistory(h.planets, { path: "docs/guide" });
    expect(r.ok && r.value.commits).toHaveLength(2);
    const file = await repositoryHistory(h.planets, { path: "assets/logo.png" });
    expect(file.ok && file.value.commits).toHaveLength(1);
    expect(await repositoryHistory(h.planets, { path: "../x" })).toMatchObject({ ok: false, error: { code: "invalid-path" } });
  });

  it("returns 10 by default, accepts 20, refuses 21", async () => {
    const def = await repositoryHistory(h.wide, {});
    expect(def.ok && def.value.commits).toHaveLength(REPOSITORY_HISTORY_DEFAULT_COMMITS);
    const max = await repositoryHistory(h.wide, { limit: MAX_REPOSITORY_HISTORY_COMMITS });
    expect(max.ok && max.value.commits).toHaveLength(MAX_REPOSITORY_HISTORY_COMMITS);
    expect(await repositoryHistory(h.wide, { limit: MAX_REPOSITORY_HISTORY_COMMITS + 1 })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
  });

  it("starts from the pin, not the moving branch", async () => {
    const ctx = await h.contextFor(PLANETS.id);
    h.fake.state.push(PLANETS.id, "main", { "README.md": "moved\n" }, "moved on");
    const r = await repositoryHistory(ctx, {});
    expect(r.ok && r.value.commits[0].sha).toBe(ctx.pin.commitSha);
    expect(r.ok && r.value.commits.some((c) => c.message === "moved on")).toBe(false);
  });
});
