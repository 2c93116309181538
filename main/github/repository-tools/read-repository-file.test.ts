import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_REPOSITORY_FILE_BYTES, REPOSITORY_FILE_DEFAULT_WINDOW_LINES } from "../../util/limits.js";
import { EXACT_LIMIT_TEXT, PLANETS } from "../../../test-support/fake-github/fixtures.js";
import { PATH_ESCAPE_CORPUS } from "./path-escape-corpus.js";
import { readRepositoryFile } from "./read-repository-file.js";
import { startToolHarness, type ToolHarness } from "./tool-test-context.js";

let h: ToolHarness;
beforeAll(async () => {
  h = await startToolHarness();
});
afterAll(() => h.fake.close());

const read = (input: unknown) => readRepositoryFile(h.planets, input);

describe("read_repository_file", () => {
  it("reads a UTF-8 file at the pinned commit", async () => {
    const r = await read({ path: "src/lib/orbit.ts" });
    expect(r).toEqual({
      ok: true,
      value: {
        path: "src/lib/orbit.ts",
        commitSha: h.planets.pin.commitSha,
        startLine: 1,
        endLine: 3,
        totalLines: 3,
        truncated: false,
        content: "export function orbit(radius: number): number {\n  return 2 * Math.PI * radius;\n}",
      },
    });
  });

  it("returns a default window of 400 lines and honours start/end ranges", async () => {
    const def = await read({ path: "docs/thousand-lines.txt" });
    expect(def.ok && def.value).toMatchObject({ startLine: 1, endLine: REPOSITORY_FILE_DEFAULT_WINDOW_LINES, totalLines: 1000, truncated: true });
    expect(def.ok && def.value.content.split("\n")).toHaveLength(400);
    const tail = await read({ path: "docs/thousand-lines.txt", start_line: 990 });
    expect(tail.ok && tail.value).toMatchObject({ startLine: 990, endLine: 1000, truncated: false, content: Array.from({ length: 11 }, (_, i) => `line ${990 + i}`).join("\n") });
    const range = await read({ path: "docs/thousand-lines.txt", start_line: 10, end_line: 12 });
    expect(range.ok && range.value.content).toBe("line 10\nline 11\nline 12");
    expect(await read({ path: "docs/thousand-lines.txt", start_line: 12, end_line: 11 })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(await read({ path: "docs/thousand-lines.txt", start_line: 1001 })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(await read({ path: "docs/thousand-lines.txt", start_line: 0 })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
  });

  it("accepts a file of exactly 256 KiB and refuses one byte more", async () => {
    expect(Buffer.byteLength(EXACT_LIMIT_TEXT)).toBe(MAX_REPOSITORY_FILE_BYTES);
    const exact = await read({ path: "assets/exact-limit.txt" });
    expect(exact.ok && exact.value.totalLines).toBe(4096);
    expect(await read({ path: "assets/over-limit.txt" })).toMatchObject({ ok: false, error: { code: "too-large" } });
    expect(await read({ path: "assets/large.txt" })).toMatchObject({ ok: false, error: { code: "too-large" } });
  });

  it("refuses binary and non-UTF-8 files, directories and missing files with typed errors", async () => {
    expect(await read({ path: "assets/logo.png" })).toMatchObject({ ok: false, error: { code: "binary-file" } });
    expect(await read({ path: "assets/latin1.txt" })).toMatchObject({ ok: false, error: { code: "not-utf8" } });
    expect(await read({ path: "src/lib" })).toMatchObject({ ok: false, error: { code: "not-a-file" } });
    expect(await read({ path: "src/nope.ts" })).toMatchObject({ ok: false, error: { code: "not-found" } });
  });

  it("refuses every path-escape attempt without asking GitHub", async () => {
    const before = h.fake.state.countRequests("/");
    for (const path of PATH_ESCAPE_CORPUS) {
      const r = await read({ path });
      expect(r.ok, JSON.stringify(path)).toBe(false);
      expect(!r.ok && r.error.code).toBe("invalid-path");
    }
    expect(h.fake.state.countRequests("/")).toBe(before);
  });

  it("takes owner and repository only from the binding", async () => {
    expect(await read({ path: "README.md", owner: "other-org", repo: "elsewhere" })).toMatchObject({ ok: false, error: { code: "invalid-input" } });
    expect(await read({})).toMatchObject({ ok: false, error: { code: "invalid-input" } });
  });

  it("keeps reading the pinned commit while the default branch moves", async () => {
    const ctx = await h.contextFor(PLANETS.id);
    const newHead = h.fake.state.push(PLANETS.id, "main", { "README.md": "# Planets, rewritten\n" }, "rewrite");
    const pinned = await readRepositoryFile(ctx, { path: "README.md" });
    expect(pinned.ok && pinned.value.content).toBe("# Planets\n\nA catalogue of planets.");
    const fresh = await readRepositoryFile(await h.contextFor(PLANETS.id), { path: "README.md" });
    expect(fresh.ok && fresh.value).toMatchObject({ commitSha: newHead, content: "# Planets, rewritten" });
  });

  it("turns timeouts, rate limits, outages and revoked tokens into typed errors", async () => {
    const slow = await h.contextFor(PLANETS.id, { timeoutMs: 100 });
    const remove = h.fake.inject({ kind: "slow", delayMs: 1000 }, { pathPrefix: "/repos/octo-org/planets/contents", times: 1 });
    expect(await readRepositoryFile(slow, { path: "README.md" })).toMatchObject({ ok: false, error: { code: "timeout" } });
    remove();
    h.fake.inject({ kind: "rate-limit", resetEpochSeconds: Math.floor(Date.now() / 1000) + 90 }, { pathPrefix: "/repos/octo-org/planets/contents", times: 1 });
    const limited = await read({ path: "README.md" });
    expect(limited).toMatchObject({ ok: false, error: { code: "rate-limited" } });
    expect(!limited.ok && limited.error.details?.retryAfterSeconds).toBeGreaterThan(0);
    h.fake.inject({ kind: "status", status: 500 }, { pathPrefix: "/repos/octo-org/planets/contents", times: 1 });
    expect(await read({ path: "README.md" })).toMatchObject({ ok: false, error: { code: "github-unavailable" } });
    h.fake.inject({ kind: "unauthorized" }, { pathPrefix: "/repos/octo-org/planets/contents", times: 1 });
    expect(await read({ path: "README.md" })).toMatchObject({ ok: false, error: { code: "unauthorized" } });
  });
});
