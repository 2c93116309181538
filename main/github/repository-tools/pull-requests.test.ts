import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_GITHUB_TEXT_FIELD_CHARS, MAX_PULL_REQUEST_DIFF_BYTES, MAX_PULL_REQUESTS_LISTED, PULL_REQUESTS_DEFAULT_LISTED } from "../../util/limits.js";
import { PLANETS } from "../../../test-support/fake-github/fixtures.js";
import { listPullRequests, PULL_REQUEST_READ_METHODS, pullRequestRead } from "./pull-requests.js";
import { REPOSITORY_TOOLS } from "./index.js";
import { startToolHarness, type ToolHarness } from "./tool-test-context.js";

let h: ToolHarness;
beforeAll(async () => {
  h = await startToolHarness();
  const repo = h.fake.state.repoById(PLANETS.id)!;
  // A pull request whose diff is larger than the diff bound, and 60 small ones for the list bounds.
  const big = { ...repo.pulls[0], number: 100, updatedAt: "2025-01-05T00:00:00Z", files: [{ filename: "big.txt", status: "added" as const, additions: 1, deletions: 0, patch: "+" + "x".repeat(MAX_PULL_REQUEST_DIFF_BYTES) }] };
  repo.pulls.push(big);
  repo.pulls.push({ ...repo.pulls[2], number: 300, body: "b".repeat(MAX_GITHUB_TEXT_FIELD_CHARS), updatedAt: "2024-01-01T00:00:00Z" });
  repo.pulls.push({ ...repo.pulls[2], number: 301, body: "b".repeat(MAX_GITHUB_TEXT_FIELD_CHARS + 1), updatedAt: "2024-01-01T00:00:00Z" });
  for (let i = 0; i < 60; i++) repo.pulls.push({ ...repo.pulls[2], number: 200 + i, title: `bulk ${i}`, updatedAt: "2024-12-01T00:00:00Z" });
});
afterAll(() => h.fake.close());

const read = (method: string, pull_number = 1) => pullRequestRead(h.planets, { method, pull_number });

describe("list_pull_requests", () => {
  it("lists open pull requests newest first by default; closed and all on request", async () => {
    const open = await listPullRequests(h.planets, {});
    expect(open.ok && open.value.pullRequests.slice(0, 3).map((p) => p.number)).toEqual([3, 1, 100]);
    const closed = await listPullRequests(h.planets, { state: "closed" });
    expect(closed.ok && closed.value.pullRequests).toEqual([expect.objectContaining({ number: 2, merged: true, author: "alice" })]);
  });

  it("returns 20 by default, accepts 50, refuses 51", async () => {
    const def = await listPullRequests(h.planets, { state: "all" });
    expect(def.ok && def.value.pullRequests).toHaveLength(PULL_REQUESTS_DEFAULT_LISTED);
    const max = await listPullRequests(h.planets, { state: "all", limit: MAX_PULL_REQUESTS_LISTED });
    expect(max.ok && max.value.pullRequests).toHaveLength(MAX_PULL_REQUESTS_LISTED);
    expect(await listPullRequests(h.planets, { limit: MAX_PULL_REQUESTS_LISTED + 1 })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(await listPullRequests(h.planets, { owner: "other-org" })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
  });
});

describe("pull_request_read", () => {
  it("supports exactly the nine read methods", () => {
    expect(PULL_REQUEST_READ_METHODS).toEqual(["get", "get_diff", "get_status", "get_files", "get_commits", "get_review_comments", "get_reviews", "get_comments", "get_check_runs"]);
  });

  it("reads each facet of a pull request", async () => {
    expect(await read("get")).toMatchObject({ ok: true, value: { number: 1, title: "Add rings to Saturn", body: "This adds rings.", author: "bob", headSha: "a".repeat(40), changedFiles: 2 } });
    const diff = await read("get_diff");
    expect(diff.ok && diff.value).toMatchObject({ truncated: false });
    expect(diff.ok && (diff.value as { diff: string }).diff).toContain("diff --git a/src/lib/rings.ts");
    expect(await read("get_status")).toMatchObject({ ok: true, value: { state: "failure", statuses: [{ context: "ci/build" }, { context: "ci/test", state: "failure" }] } });
    expect(await read("get_files")).toMatchObject({ ok: true, value: { files: [{ filename: "src/lib/rings.ts", status: "added" }, { filename: "README.md" }] } });
    expect(await read("get_commits")).toMatchObject({ ok: true, value: { commits: [{ message: "Add rings", author: "bob" }] } });
    expect(await read("get_review_comments")).toMatchObject({ ok: true, value: { comments: [{ author: "alice", path: "src/lib/rings.ts", body: "Are rings a boolean?" }] } });
    expect(await read("get_reviews")).toMatchObject({ ok: true, value: { reviews: [{ author: "alice", state: "CHANGES_REQUESTED" }] } });
    expect(await read("get_comments")).toMatchObject({ ok: true, value: { comments: [{ author: "carol", body: "Looking forward to this." }] } });
    expect(await read("get_check_runs")).toMatchObject({ ok: true, value: { checkRuns: [{ name: "lint", conclusion: "success" }, { name: "unit", status: "in_progress", conclusion: null }] } });
  });

  it("cuts a diff at the diff bound and says so", async () => {
    const r = await read("get_diff", 100);
    expect(r.ok && r.value).toMatchObject({ truncated: true });
    expect(r.ok && Buffer.byteLength((r.value as { diff: string }).diff)).toBe(MAX_PULL_REQUEST_DIFF_BYTES);
  });

  it("returns bodies up to the text bound intact and clips longer ones", async () => {
    const at = await read("get", 300);
    expect(at.ok && (at.value as { body: string }).body).toBe("b".repeat(MAX_GITHUB_TEXT_FIELD_CHARS));
    const over = await read("get", 301);
    expect(over.ok && (over.value as { body: string }).body).toBe(`${"b".repeat(MAX_GITHUB_TEXT_FIELD_CHARS)}…`);
  });

  it("refuses unknown methods, bad numbers and foreign keys; reports missing pull requests", async () => {
    expect(await read("merge")).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(await read("get", 0)).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(await pullRequestRead(h.planets, { method: "get", pull_number: 1, repo: "x/y" })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(await read("get", 9999)).toMatchObject({ ok: false, error: { code: "not-found" } });
  });
});

describe("the tool set", () => {
  it("has the six tools and no issue or general search tool", () => {
    expect(REPOSITORY_TOOLS.names.sort()).toEqual(["list_pull_requests", "list_repository_tree", "pull_request_read", "read_repository_file", "repository_history", "search_repository"]);
  });
});
