import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ELECTRON_FETCH_RETRY_MS, lastFetchFailure, rememberFetchFailure, shouldFetch } from "./electron-fetch-memo.mjs";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("electron fetch memo", () => {
  it("fetches when nothing failed; after a failure, not until ELECTRON_FETCH_RETRY_MS has passed", () => {
    dir = mkdtempSync(join(tmpdir(), "chopin-electron-memo-"));
    const memo = join(dir, "cache", "electron-fetch.json");
    expect(shouldFetch(memo, 1_000)).toBe(true);
    rememberFetchFailure(memo, 1_000);
    expect(lastFetchFailure(memo)).toBe(1_000);
    expect(shouldFetch(memo, 1_000 + ELECTRON_FETCH_RETRY_MS - 1)).toBe(false);
    expect(shouldFetch(memo, 1_000 + ELECTRON_FETCH_RETRY_MS)).toBe(true);
  });

  it("an unreadable memo is no memo (fetch again)", () => {
    dir = mkdtempSync(join(tmpdir(), "chopin-electron-memo-"));
    const memo = join(dir, "electron-fetch.json");
    writeFileSync(memo, "not json");
    expect(lastFetchFailure(memo)).toBeNull();
    expect(shouldFetch(memo, 5)).toBe(true);
  });
});
