/**
 * planTextSplices: the splices rebuild the new text exactly, stay in order, never cut a surrogate pair and leave
 * unchanged lines alone; each bound in shared/limits.ts (TEXT_DIFF_CHAR_HUNK_UNITS, TEXT_DIFF_MAX_WORK) is checked at
 * its edge.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { TEXT_DIFF_CHAR_HUNK_UNITS, TEXT_DIFF_MAX_WORK } from "./limits.js";
import { applySplices, planTextSplices, type TextSplice } from "./text-splices.js";

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;
/** True when `i` falls between the halves of a surrogate pair of `text`. */
const cutsPair = (text: string, i: number) => i > 0 && i < text.length && isHigh(text.charCodeAt(i - 1)) && isLow(text.charCodeAt(i));

/** Small alphabet, few and short lines, emoji and accents: many repeats, so every diff path is exercised. */
const piece = fc.constantFrom("a", "b", " ", "\n", "\n", "é", "😀", "😁", "👍🏽", "ab\n", "x\n");
const text = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(""));

function checkPlan(oldText: string, newText: string, splices: TextSplice[]) {
  expect(applySplices(oldText, splices)).toBe(newText);
  let at = 0;
  let shift = 0;
  for (const s of splices) {
    expect(s.index).toBeGreaterThanOrEqual(at);
    expect(s.deleteCount + s.insert.length).toBeGreaterThan(0);
    expect(cutsPair(oldText, s.index)).toBe(false);
    expect(cutsPair(oldText, s.index + s.deleteCount)).toBe(false);
    // The same boundaries in the new text.
    expect(cutsPair(newText, s.index + shift)).toBe(false);
    expect(cutsPair(newText, s.index + shift + s.insert.length)).toBe(false);
    shift += s.insert.length - s.deleteCount;
    at = s.index + s.deleteCount;
  }
}

describe("planTextSplices", () => {
  it("rebuilds the new text exactly from random pairs (small alphabet, lines, emoji), in order, never cutting a pair", () => {
    fc.assert(
      fc.property(text, text, (oldText, newText) => checkPlan(oldText, newText, planTextSplices(oldText, newText).splices)),
      { numRuns: 2000 },
    );
  });

  it("rebuilds the new text from arbitrary unicode, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), fc.string({ unit: "binary", maxLength: 60 }), (a, b) => {
        expect(applySplices(a, planTextSplices(a, b).splices)).toBe(b);
      }),
      { numRuns: 1000 },
    );
  });

  it("rebuilds the new text even when every diff falls back (zero budget)", () => {
    fc.assert(
      fc.property(text, text, (oldText, newText) => checkPlan(oldText, newText, planTextSplices(oldText, newText, 0).splices)),
      { numRuns: 500 },
    );
  });

  it("keeps a changed emoji whole: 😀 → 😁 replaces both halves", () => {
    expect(planTextSplices("a😀b", "a😁b").splices).toEqual([{ index: 1, deleteCount: 2, insert: "😁" }]);
    expect(planTextSplices("x\n😀 keep this\n", "x\n😁 keep this z\n").splices).toEqual([
      { index: 2, deleteCount: 2, insert: "😁" },
      { index: 14, deleteCount: 0, insert: " z" },
    ]);
  });

  it("touches only the changed lines and, inside a small hunk, only the changed words", () => {
    const before = "# Plan\n\nKeep this line.\nChange the red word here.\nKeep that line.\n";
    const after = "# Plan\n\nKeep this line.\nChange the blue word there.\nKeep that line.\nNew line.\n";
    const { splices } = planTextSplices(before, after);
    expect(applySplices(before, splices)).toBe(after);
    for (const s of splices) expect(before.slice(s.index, s.index + s.deleteCount)).not.toContain("Keep");
    expect(splices.map((s) => s.insert)).toEqual(["blue", "t", "New line.\n"]);
  });

  it("replaces a rewritten sentence as one splice, not letter by letter around the letters it shares by chance", () => {
    const before = "top\nThe quick brown fox jumps.\nbottom\n";
    const after = "top\nA lazy dog sleeps all day.\nbottom\n";
    expect(planTextSplices(before, after).splices).toEqual([{ index: 4, deleteCount: 25, insert: "A lazy dog sleeps all day" }]);
  });

  it("moves sections without rewriting the lines that stay", () => {
    const section = (n: number) => Array.from({ length: 20 }, (_, i) => `section ${n} line ${i}\n`).join("");
    const before = section(1) + section(2) + section(3);
    const after = section(2) + section(1) + section(3);
    const { splices, lineFallback } = planTextSplices(before, after);
    expect(lineFallback).toBe(false);
    expect(applySplices(before, splices)).toBe(after);
    const deleted = splices.reduce((sum, s) => sum + s.deleteCount, 0);
    expect(deleted).toBe(section(1).length);
  });
});

describe("bounds", () => {
  /** One changed line whose two sides total `units` after trimming, with two separate changes a refinement finds. */
  function hunkOf(units: number): [string, string] {
    const same = "m".repeat(Math.floor(units / 2) - 2);
    const oldLine = `x${same}y`;
    const newLine = `z${same}w${units % 2 === 1 ? "v" : ""}`;
    expect(oldLine.length + newLine.length).toBe(units);
    return [`top\n${oldLine}\nbottom\n`, `top\n${newLine}\nbottom\n`];
  }

  it(`refines a hunk of TEXT_DIFF_CHAR_HUNK_UNITS (${TEXT_DIFF_CHAR_HUNK_UNITS}) units by character, splices one unit more whole`, () => {
    const [a, b] = hunkOf(TEXT_DIFF_CHAR_HUNK_UNITS);
    const refined = planTextSplices(a, b);
    expect(refined).toMatchObject({ refinedHunks: 1, wholesaleHunks: 0 });
    expect(refined.splices).toHaveLength(2);
    expect(applySplices(a, refined.splices)).toBe(b);

    const [c, d] = hunkOf(TEXT_DIFF_CHAR_HUNK_UNITS + 1);
    const whole = planTextSplices(c, d);
    expect(whole).toMatchObject({ refinedHunks: 0, wholesaleHunks: 1 });
    expect(whole.splices).toEqual([{ index: 4, deleteCount: TEXT_DIFF_CHAR_HUNK_UNITS / 2, insert: d.slice(4, -"\nbottom\n".length) }]);
  });

  /** n lines "a", n lines "b" against the two blocks swapped: the line diff's work grows with n. */
  function swapped(n: number): [string, string] {
    const as = "a\n".repeat(n);
    const bs = "b\n".repeat(n);
    return [as + bs, bs + as];
  }

  it(`diffs lines while the work is at most TEXT_DIFF_MAX_WORK (${TEXT_DIFF_MAX_WORK}); one step more replaces the trimmed middle whole`, () => {
    const lineWork = (n: number) => planTextSplices(...swapped(n), Number.MAX_SAFE_INTEGER).lineWork;
    // The largest n whose line diff fits the budget (work grows with n).
    let low = 1;
    let high = 4096;
    expect(lineWork(low)).toBeLessThanOrEqual(TEXT_DIFF_MAX_WORK);
    expect(lineWork(high)).toBeGreaterThan(TEXT_DIFF_MAX_WORK);
    while (high - low > 1) {
      const mid = (low + high) >> 1;
      if (lineWork(mid) <= TEXT_DIFF_MAX_WORK) low = mid;
      else high = mid;
    }
    const [a, b] = swapped(low);
    const within = planTextSplices(a, b);
    expect(within.lineFallback).toBe(false);
    expect(within.lineWork).toBeLessThanOrEqual(TEXT_DIFF_MAX_WORK);
    expect(within.splices.length).toBeGreaterThan(1);
    expect(applySplices(a, within.splices)).toBe(b);

    const [c, d] = swapped(high);
    const over = planTextSplices(c, d);
    expect(over.lineFallback).toBe(true);
    expect(over.splices).toHaveLength(1);
    expect(applySplices(c, over.splices)).toBe(d);
  });
});
