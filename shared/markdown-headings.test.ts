import { describe, expect, it } from "vitest";
import { firstHeadingText, headingsOf } from "./markdown-headings.js";

describe("headingsOf (the editor's Markdown parser)", () => {
  it("reads ATX and setext headings with their levels, offsets and words, and nothing in code, quotes or lists", () => {
    const md = [
      "Intro",
      "",
      "# One *em* #",
      "",
      "Setext **title**",
      "on two lines",
      "===",
      "",
      "```",
      "# not a heading",
      "```",
      "",
      "    # indented code",
      "",
      "> # quoted",
      "",
      "- # in a list",
      "",
      "Second",
      "------",
    ].join("\n");
    expect(headingsOf(md)).toEqual([
      { level: 1, text: "One em", from: md.indexOf("# One") },
      { level: 1, text: "Setext title on two lines", from: md.indexOf("Setext") },
      { level: 2, text: "Second", from: md.indexOf("Second") },
    ]);
  });

  it("gives the first heading with words, setext included", () => {
    expect(firstHeadingText("Plan\n====\n\nbody")).toBe("Plan");
    expect(firstHeadingText("#\n\n## [Linked](https://x.example) `code`")).toBe("Linked code");
    expect(firstHeadingText("```\n# fenced\n```\nno heading")).toBeUndefined();
  });
});
