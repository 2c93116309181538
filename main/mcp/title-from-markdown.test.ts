import { describe, expect, it } from "vitest";
import { MAX_TITLE_CHARS } from "../../shared/limits.js";
import { titleFromMarkdown } from "./title-from-markdown.js";

describe("titleFromMarkdown", () => {
  it("is the first heading's text, without markers", () => {
    expect(titleFromMarkdown("# Launch plan\n\nBody")).toBe("Launch plan");
    expect(titleFromMarkdown("Intro line\n\n## **Step** one ##\n# Later")).toBe("Step one");
  });

  it("skips headings inside code fences and empty headings, and is undefined without a heading", () => {
    expect(titleFromMarkdown("```\n# not a title\n```\n# Real")).toBe("Real");
    expect(titleFromMarkdown("#\n#hashtag\nplain")).toBeUndefined();
    expect(titleFromMarkdown("")).toBeUndefined();
  });

  it(`cuts a long heading to MAX_TITLE_CHARS (${MAX_TITLE_CHARS}) characters, never inside a surrogate pair`, () => {
    expect(titleFromMarkdown(`# ${"a".repeat(MAX_TITLE_CHARS)}`)).toHaveLength(MAX_TITLE_CHARS);
    const long = titleFromMarkdown(`# ${"😀".repeat(MAX_TITLE_CHARS + 5)}`)!;
    expect([...long]).toHaveLength(MAX_TITLE_CHARS);
  });
});
