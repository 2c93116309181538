/**
 * Remembers that fetching the Electron binary failed, so `npm start` on a machine that cannot download it (offline,
 * downloads blocked, a hanging proxy) goes straight to host mode instead of waiting on the same failure every launch.
 * The memo is a small JSON file under node_modules/.cache, so a fresh `npm install` forgets it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** After a failed fetch, later launches skip fetching for this long. */
export const ELECTRON_FETCH_RETRY_MS = 24 * 60 * 60 * 1000;
/** One fetch attempt may take this long before it counts as failed (the binary is ~100 MB). */
export const ELECTRON_FETCH_TIMEOUT_MS = 120_000;

/** When the last fetch failed (epoch ms), or null: no memo, or one that cannot be read. */
export function lastFetchFailure(memoPath) {
  if (!existsSync(memoPath)) return null;
  try {
    const at = JSON.parse(readFileSync(memoPath, "utf8")).failedAt;
    return Number.isFinite(at) ? at : null;
  } catch {
    return null;
  }
}

/** Whether to try fetching now: never failed, or the last failure is ELECTRON_FETCH_RETRY_MS old or more. */
export function shouldFetch(memoPath, now) {
  const failedAt = lastFetchFailure(memoPath);
  return failedAt === null || now - failedAt >= ELECTRON_FETCH_RETRY_MS;
}

export function rememberFetchFailure(memoPath, now) {
  try {
    mkdirSync(dirname(memoPath), { recursive: true });
    writeFileSync(memoPath, JSON.stringify({ failedAt: now }));
  } catch {
    // Only an optimisation: the next launch tries again.
  }
}
