import { describe, expect, it } from "vitest";
import { extractOutline } from "./outline.js";

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
});
