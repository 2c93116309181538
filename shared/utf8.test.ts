import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { utf8Bytes, utf8RangeBytes } from "./utf8.js";

const encoded = (text: string) => new TextEncoder().encode(text).length;
/** Any UTF-16 code units, lone surrogates included (what a JS string can hold). */
const anyUnits = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 }).map((codes) => String.fromCharCode(...codes));
const mixed = fc.oneof(anyUnits, fc.string({ unit: "binary" }), fc.string({ unit: "grapheme" }));

describe("utf8Bytes", () => {
  it("counts what Buffer and TextEncoder count, for ASCII, accents, CJK, emoji and lone surrogates", () => {
    for (const text of ["", "a", "é", "€", "日本", "😀", "a😀b", "\ud83d", "\ude00", "\ude00\ud83d", "x\ud83dy"]) {
      expect(utf8Bytes(text)).toBe(Buffer.byteLength(text, "utf8"));
      expect(utf8Bytes(text)).toBe(encoded(text));
    }
    fc.assert(fc.property(mixed, (text) => utf8Bytes(text) === Buffer.byteLength(text, "utf8")));
  });

  it("splits anywhere (even inside a surrogate pair) and the parts add up to the whole", () => {
    fc.assert(
      fc.property(mixed, fc.nat(), fc.nat(), (text, a, b) => {
        const [x, y] = [a % (text.length + 1), b % (text.length + 1)].sort((p, q) => p - q);
        return utf8RangeBytes(text, 0, x) + utf8RangeBytes(text, x, y) + utf8RangeBytes(text, y) === utf8Bytes(text);
      }),
    );
  });
});
