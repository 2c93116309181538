import { describe, expect, it } from "vitest";
import { foldForSearch, holdsAllWords, searchWords } from "./search-fold.js";

describe("foldForSearch", () => {
  it("ignores case and accents, one code point for one", () => {
    expect(foldForSearch("Café Überblick ÉTÉ naïve")).toBe("cafe uberblick ete naive");
    for (const text of ["Café", "cafe\u0301", "İstanbul", "ﬁne", "😀 Émoji", "Straße"]) {
      expect([...foldForSearch(text)]).toHaveLength([...text].length);
    }
    expect(foldForSearch("ASCII only")).toBe("ascii only");
  });
});

describe("searchWords", () => {
  it("splits a query into folded words, composed first, without repeats", () => {
    expect(searchWords("  Quick  FOX quick ")).toEqual(["quick", "fox"]);
    expect(searchWords("cafe\u0301")).toEqual(["cafe"]);
    expect(searchWords("   ")).toEqual([]);
  });

  it("matches when every word is there, anywhere", () => {
    const text = foldForSearch("The quick brown fox, with **bold** and `code`");
    expect(holdsAllWords(text, searchWords("fox quick"))).toBe(true);
    expect(holdsAllWords(text, searchWords("bold code"))).toBe(true);
    expect(holdsAllWords(text, searchWords("fox cat"))).toBe(false);
  });
});
