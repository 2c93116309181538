import { describe, expect, it } from "vitest";
import { RELAY_RECONNECT_MAX_MS, RELAY_RECONNECT_MIN_MS } from "../util/limits.js";
import { retryDelay } from "./retry-delay.js";

describe("retryDelay", () => {
  it("starts at RELAY_RECONNECT_MIN_MS: the first retry never waits less, jitter or not", () => {
    expect(retryDelay(0, 0)).toBe(RELAY_RECONNECT_MIN_MS);
    expect(retryDelay(0, 0.999)).toBeLessThanOrEqual(RELAY_RECONNECT_MIN_MS);
    expect(retryDelay(1, 0)).toBe(RELAY_RECONNECT_MIN_MS);
  });

  it("doubles with each failure and reaches RELAY_RECONNECT_MAX_MS exactly, never more", () => {
    expect(retryDelay(2, 0.999999)).toBeCloseTo(RELAY_RECONNECT_MIN_MS * 4, -1);
    const attemptsToCap = Math.ceil(Math.log2(RELAY_RECONNECT_MAX_MS / RELAY_RECONNECT_MIN_MS));
    expect(retryDelay(attemptsToCap - 1, 1)).toBeLessThan(RELAY_RECONNECT_MAX_MS + 1);
    expect(retryDelay(attemptsToCap, 1)).toBe(RELAY_RECONNECT_MAX_MS);
    for (const attempt of [attemptsToCap, attemptsToCap + 1, 60, 2000]) {
      for (const random of [0, 0.5, 0.999999]) {
        const delay = retryDelay(attempt, random);
        expect(delay).toBeLessThanOrEqual(RELAY_RECONNECT_MAX_MS);
        expect(delay).toBeGreaterThanOrEqual(RELAY_RECONNECT_MAX_MS / 2);
      }
    }
  });
});
