/**
 * Edge tests for MAX_PULL_REQUEST_ITEMS against the fake GitHub: every pull_request_read list method returns all
 * items of a pull request holding exactly the bound, and no more than the bound for one holding one item more.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PULL_REQUEST_ITEMS } from "../../util/limits.js";
import { PLANETS, type FakePull } from "../../../test-support/fake-github/fixtures.js";
import { pullRequestRead } from "./pull-requests.js";
import { startToolHarness, type ToolHarness } from "./tool-test-context.js";

const AT = 400;
const PAST = 401;
let h: ToolHarness;

/** A pull request with `n` of every list item, its head commit carrying `n` statuses and `n` check runs. */
function pullWith(number: number, n: number, headSha: string, template: FakePull): FakePull {
  const seq = Array.from({ length: n }, (_, i) => i);
  return {
    ...template,
    number,
    head: { ref: `items/${number}`, sha: headSha },
    files: seq.map((i) => ({ filename: `f${i}.txt`, status: "added", additions: 1, deletions: 0, patch: `+${i}\n` })),
    commits: seq.map((i) => ({ sha: String(i).padStart(40, "0"), message: `c${i}`, author: "bob", date: "2025-01-05T10:00:00Z" })),
    reviewComments: seq.map((i) => ({ id: 10_000 + i, user: "alice", path: `f${i}.txt`, line: 1, body: `rc${i}`, createdAt: "2025-01-05T11:00:00Z" })),
    reviews: seq.map((i) => ({ id: 20_000 + i, user: "alice", state: "COMMENTED", body: `r${i}`, submittedAt: "2025-01-05T11:00:00Z" })),
    comments: seq.map((i) => ({ id: 30_000 + i, user: "carol", body: `c${i}`, createdAt: "2025-01-05T12:00:00Z" })),
  };
}

beforeAll(async () => {
  h = await startToolHarness();
  const repo = h.fake.state.repoById(PLANETS.id)!;
  for (const [number, n, sha] of [[AT, MAX_PULL_REQUEST_ITEMS, "d".repeat(40)], [PAST, MAX_PULL_REQUEST_ITEMS + 1, "e".repeat(40)]] as const) {
    repo.pulls.push(pullWith(number, n, sha, repo.pulls[0]));
    repo.statuses[sha] = { state: "success", statuses: Array.from({ length: n }, (_, i) => ({ context: `ci/${i}`, state: "success", description: "" })) };
    repo.checkRuns[sha] = Array.from({ length: n }, (_, i) => ({ id: 40_000 + i, name: `run${i}`, status: "completed", conclusion: "success" }));
  }
});
afterAll(() => h.fake.close());

const FACETS = [
  ["get_files", "files"],
  ["get_commits", "commits"],
  ["get_review_comments", "comments"],
  ["get_reviews", "reviews"],
  ["get_comments", "comments"],
  ["get_status", "statuses"],
  ["get_check_runs", "checkRuns"],
] as const;

async function count(method: string, pull_number: number, key: string): Promise<unknown[]> {
  const r = await pullRequestRead(h.planets, { method, pull_number });
  if (!r.ok) throw new Error(`${method} failed: ${JSON.stringify(r.error)}`);
  return (r.value as Record<string, unknown[]>)[key];
}

describe("pull_request_read item bound", () => {
  it.each(FACETS)("%s returns all items at the bound", async (method, key) => {
    expect(await count(method, AT, key)).toHaveLength(MAX_PULL_REQUEST_ITEMS);
  });

  it.each(FACETS)("%s returns at most the bound one item past it", async (method, key) => {
    const items = await count(method, PAST, key);
    expect(items).toHaveLength(MAX_PULL_REQUEST_ITEMS);
    expect(new Set(items.map((i) => JSON.stringify(i))).size).toBe(MAX_PULL_REQUEST_ITEMS);
  });

  it("asks GitHub for exactly the bound per list request", async () => {
    const mark = h.fake.state.requests.length;
    await count("get_files", PAST, "files");
    await count("get_check_runs", PAST, "checkRuns");
    const asked = h.fake.state.requests.slice(mark).filter((r) => /\/(files|check-runs)$/.test(r.path));
    expect(asked).toHaveLength(2);
    for (const r of asked) expect(new URLSearchParams(r.query).get("per_page")).toBe(String(MAX_PULL_REQUEST_ITEMS));
  });
});
