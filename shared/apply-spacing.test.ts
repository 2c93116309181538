/** The spacing rule at its three regimes, and the timing it takes its cost from. */
import { describe, expect, it } from "vitest";
import { spacingAfter, timed } from "./apply-spacing.js";

const rule = { floorMs: 16, busyShare: 0.25, maxMs: 1000 };

describe("spacingAfter", () => {
  it("is the floor for cheap applies, cost over share between, the cap above", () => {
    expect(spacingAfter(0, rule)).toBe(16);
    expect(spacingAfter(4, rule)).toBe(16);
    expect(spacingAfter(5, rule)).toBe(20);
    expect(spacingAfter(250, rule)).toBe(1000);
    expect(spacingAfter(251, rule)).toBe(1000);
  });
});

describe("timed", () => {
  it("returns the clock's difference across the work, which runs once, and never less than zero", () => {
    const reads = [10, 52];
    let runs = 0;
    expect(timed(() => void runs++, () => reads.shift()!)).toBe(42);
    expect(runs).toBe(1);
    const backwards = [10, 5];
    expect(timed(() => undefined, () => backwards.shift()!)).toBe(0);
  });
});
