import { describe, expect, it } from "vitest";
import { snippetWords } from "./snippet-words.js";

describe("snippetWords", () => {
  it("strips Markdown syntax from a body match's snippet, keeping its words and ellipses", () => {
    expect(snippetWords("# Design 7 Body 7…")).toBe("Design 7 Body 7…");
    expect(snippetWords("…goals ## Scope - [ ] write the **first** draft, see [the spec](https://x.test/a)…")).toBe(
      "…goals Scope write the first draft, see the spec…",
    );
    expect(snippetWords("- item one > quoted `code` and *em* and ~~old~~ ```ts fence")).toBe("item one quoted code and em and old fence");
    expect(snippetWords("…## Heading")).toBe("…Heading");
    expect(snippetWords("1. [x] done")).toBe("done");
  });

  it("keeps what is not syntax: dashes between words, snake_case, arithmetic", () => {
    expect(snippetWords("before - after")).toBe("before - after");
    expect(snippetWords("uses snake_case_name here")).toBe("uses snake_case_name here");
    expect(snippetWords("2 * 3 = 6")).toBe("2 * 3 = 6");
    expect(snippetWords("issue #12 is open")).toBe("issue #12 is open");
  });
});
