import { describe, expect, it } from "vitest";
import { labelPlacement } from "./caret-label-fit.js";

const area = { left: 100, right: 1000, top: 50, bottom: 700 };
const size = { width: 80, height: 16 };
const caretAt = (left: number, top: number) => ({ left, right: left + 2, top, bottom: top + 20 });

describe("labelPlacement", () => {
  it("keeps the default (right of the caret, above the line) while it fits", () => {
    expect(labelPlacement(size, caretAt(500, 300), area)).toEqual({ x: false, y: false });
    expect(labelPlacement(size, caretAt(920, 66), area)).toEqual({ x: false, y: false });
  });

  it("flips left when the label would pass the right edge, by a pixel or more, and only if it fits on the left", () => {
    expect(labelPlacement(size, caretAt(921, 300), area).x).toBe(true);
    expect(labelPlacement({ width: 950, height: 16 }, caretAt(921, 300), area).x).toBe(false);
  });

  it("goes below the line when it would pass the top", () => {
    expect(labelPlacement(size, caretAt(500, 65), area).y).toBe(true);
    expect(labelPlacement(size, caretAt(500, 66), area).y).toBe(false);
  });
});
