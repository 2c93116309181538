/** The bounded Myers diff: its runs are a longest common subsequence, and it gives up past its work budget. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { boundedDiff } from "./bounded-diff.js";

/** LCS length by the textbook table (small inputs only). */
function lcsLength(a: number[], b: number[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j];
      row[j] = a[i - 1] === b[j - 1] ? diag + 1 : Math.max(row[j], row[j - 1]);
      diag = up;
    }
  }
  return row[b.length];
}

const tokens = fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 30 });

describe("boundedDiff", () => {
  it("returns ascending equal runs whose total length is the LCS length", () => {
    fc.assert(
      fc.property(tokens, tokens, (a, b) => {
        const { runs } = boundedDiff(a, b, Number.MAX_SAFE_INTEGER);
        expect(runs).not.toBeNull();
        let aAt = 0;
        let bAt = 0;
        let total = 0;
        for (const run of runs!) {
          expect(run.length).toBeGreaterThan(0);
          expect(run.aStart).toBeGreaterThanOrEqual(aAt);
          expect(run.bStart).toBeGreaterThanOrEqual(bAt);
          for (let t = 0; t < run.length; t++) expect(a[run.aStart + t]).toBe(b[run.bStart + t]);
          aAt = run.aStart + run.length;
          bAt = run.bStart + run.length;
          total += run.length;
        }
        expect(aAt).toBeLessThanOrEqual(a.length);
        expect(bAt).toBeLessThanOrEqual(b.length);
        expect(total).toBe(lcsLength(a, b));
      }),
      { numRuns: 500 },
    );
  });

  it("answers iff its whole work is within the budget: at the work it needs, and not one step less", () => {
    const a = Array.from({ length: 200 }, (_, i) => i % 7);
    const b = Array.from({ length: 200 }, (_, i) => (i * 3) % 11);
    const full = boundedDiff(a, b, Number.MAX_SAFE_INTEGER);
    expect(full.runs).not.toBeNull();
    expect(boundedDiff(a, b, full.work)).toEqual(full);
    const cut = boundedDiff(a, b, full.work - 1);
    expect(cut.runs).toBeNull();
    expect(cut.work).toBeLessThanOrEqual(full.work);
  });

  it("handles empty sides", () => {
    expect(boundedDiff([], [], 0)).toEqual({ runs: [], work: 0 });
    expect(boundedDiff([1, 2], [], 10).runs).toEqual([]);
    expect(boundedDiff([], [1], 10).runs).toEqual([]);
  });
});
