import { describe, expect, it } from "vitest";
import { DEFAULT_DOCUMENT_TITLE, MAX_TITLE_CHARS } from "../../shared/limits.js";
import { normalizeNewTitle } from "./bounds.js";
import { titleFromMarkdown } from "./title-from-markdown.js";

describe("titleFromMarkdown", () => {
  it("is the first heading's text, without markers", () => {
    expect(titleFromMarkdown("# Launch plan\n\nBody")).toBe("Launch plan");
    expect(titleFromMarkdown("Intro line\n\n## **Step** one ##\n# Later")).toBe("Step one");
  });

  it("reads a setext heading too (text underlined with === or ---), as the editor's Markdown parser does", () => {
    expect(titleFromMarkdown("Launch plan\n===========\n\nSteps follow.")).toBe("Launch plan");
    expect(titleFromMarkdown("Intro text\n\nRollout\n-------\n")).toBe("Rollout");
  });

  it("skips headings inside code fences and empty headings, and is undefined without a heading", () => {
    expect(titleFromMarkdown("```\n# not a title\n```\n# Real")).toBe("Real");
    expect(titleFromMarkdown("#\n#hashtag\nplain")).toBeUndefined();
    expect(titleFromMarkdown("")).toBeUndefined();
  });

  it(`cuts a long heading to MAX_TITLE_CHARS (${MAX_TITLE_CHARS}) UTF-16 units, as a title is counted, never inside a character`, () => {
    expect(titleFromMarkdown(`# ${"a".repeat(MAX_TITLE_CHARS + 1)}`)).toBe("a".repeat(MAX_TITLE_CHARS));
    // Each emoji is two units: the cut keeps whole ones only, even when the limit falls inside one.
    expect(titleFromMarkdown(`# ${"😀".repeat(MAX_TITLE_CHARS)}`)).toBe("😀".repeat(MAX_TITLE_CHARS / 2));
    expect(titleFromMarkdown(`# a${"😀".repeat(MAX_TITLE_CHARS)}`)).toBe(`a${"😀".repeat(MAX_TITLE_CHARS / 2 - 1)}`);
    // A family emoji (seven units joined) is one character: kept whole or left out, never half a family.
    const family = "👨‍👩‍👧";
    const cut = titleFromMarkdown(`# ${"a".repeat(MAX_TITLE_CHARS - 3)}${family} more`)!;
    expect(cut).toBe("a".repeat(MAX_TITLE_CHARS - 3));
    // A space at the cut is not kept at the end.
    expect(titleFromMarkdown(`# ${"a".repeat(MAX_TITLE_CHARS - 1)} b`)).toBe("a".repeat(MAX_TITLE_CHARS - 1));
    // One "character" longer than the whole limit (a letter under many combining marks) is cut by code point.
    expect(titleFromMarkdown(`# e${"\u0301".repeat(MAX_TITLE_CHARS * 2)}`)).toHaveLength(MAX_TITLE_CHARS);
  });

  it("drops control characters from the heading; tabs and line-like ones become spaces", () => {
    expect(titleFromMarkdown("# Head\u0000ing\nbody")).toBe("Heading");
    expect(titleFromMarkdown("# Head\ting\u000bthree\u2028four")).toBe("Head ing three four");
    expect(titleFromMarkdown("# A\u007f\u0085\u009bB")).toBe("A B");
    // Half of a surrogate pair is no character either.
    expect(titleFromMarkdown("# Half \ud83d here")).toBe("Half  here");
  });

  it("skips a heading with nothing showable (the next one names the plan, else the default title applies)", () => {
    expect(titleFromMarkdown("# \u0000\u0001\u001f\n# Second")).toBe("Second");
    expect(titleFromMarkdown("# \u0000\t\u0007 \u007f\nbody")).toBeUndefined();
    expect(normalizeNewTitle(titleFromMarkdown("# \u0000\u0001\nbody"))).toBe(DEFAULT_DOCUMENT_TITLE);
    // Zero-width characters alone are nothing showable either.
    expect(titleFromMarkdown("# \u200b\u200c\n# Third")).toBe("Third");
  });

  it("always passes the title's own check", () => {
    const headings = [
      "Head\u0000ing",
      `${"😀".repeat(MAX_TITLE_CHARS)}`,
      `${"x".repeat(MAX_TITLE_CHARS - 1)}😀`,
      `\u0000 ${"é".repeat(MAX_TITLE_CHARS * 2)} \u0000`,
      "tab\there\u0001\u0002",
      "\u202eevil\u2066 plan\u2069",
      "Family 👨‍👩‍👧",
    ];
    for (const heading of headings) {
      const title = titleFromMarkdown(`# ${heading}\nbody`)!;
      expect(normalizeNewTitle(title)).toBe(title);
    }
  });
});
