import { describe, expect, it } from "vitest";
import { extractOutline, headingWords } from "./outline.js";

describe("extractOutline", () => {
  it("lists ATX headings with levels and offsets", () => {
    const md = "# Plan\n\nIntro\n## Goals ##\n### Risks\n####### not a heading\n#hashtag";
    expect(extractOutline(md)).toEqual([
      { level: 1, text: "Plan", from: 0 },
      { level: 2, text: "Goals", from: 14 },
      { level: 3, text: "Risks", from: 26 },
    ]);
  });

  it("skips headings inside fenced code", () => {
    const md = "```sh\n# comment\n```\n# Real\n~~~\n## no\n~~~";
    expect(extractOutline(md).map((e) => e.text)).toEqual(["Real"]);
  });

  it("keeps an empty heading so the outline matches the text", () => {
    expect(extractOutline("#\n")).toEqual([{ level: 1, text: "", from: 0 }]);
  });

  it("lists setext headings at their text line, and not under lists, quotes, blank lines or thematic breaks", () => {
    const md = "Title\n=====\n\nSection\n---\n\n---\n- item\n---\n> quote\n===\ntext";
    expect(extractOutline(md)).toEqual([
      { level: 1, text: "Title", from: 0 },
      { level: 2, text: "Section", from: 13 },
    ]);
  });

  it("shows the words of a heading, not its inline markup", () => {
    expect(extractOutline("## Real *emph* heading")[0].text).toBe("Real emph heading");
    expect(headingWords("**Bold** and __strong__, `code`, [a link](https://x.y) ~~old~~")).toBe("Bold and strong, code, a link old");
    // Underscores inside words and lone asterisks stay.
    expect(headingWords("snake_case_name and 2 * 3")).toBe("snake_case_name and 2 * 3");
  });
});
