import { describe, expect, it } from "vitest";
import { DEFAULT_DOCUMENT_TITLE, MAX_DOCUMENT_MARKDOWN_BYTES, MAX_SEARCH_QUERY_CHARS, MAX_TITLE_CHARS } from "../../shared/limits.js";
import { MAX_HEADS_PER_CALL } from "../util/limits.js";
import { checkMarkdown, checkQuery, normalizeNewTitle, normalizeTitle } from "./bounds.js";
import { revisionOf, toHexHeads, toUrlHeads, versionIdOf } from "./heads.js";

describe("titles", () => {
  it("trims and accepts exactly MAX_TITLE_CHARS, refuses one more", () => {
    expect(normalizeTitle(`  ${"a".repeat(MAX_TITLE_CHARS)}  `)).toBe("a".repeat(MAX_TITLE_CHARS));
    expect(() => normalizeTitle("a".repeat(MAX_TITLE_CHARS + 1))).toThrow(expect.objectContaining({ code: "invalid-input" }));
  });
  it("refuses direction overrides and a title with nothing visible; keeps emoji joined by zero-width joiners", () => {
    expect(() => normalizeTitle("\u202e\u200b")).toThrow(/direction override/);
    expect(() => normalizeTitle("Plan \u2066x\u2069")).toThrow(/direction override/);
    expect(() => normalizeTitle("\u200b\u200c \u2060")).toThrow(/at least one visible character/);
    expect(() => normalizeNewTitle("\u200b")).toThrow(/at least one visible character/);
    expect(normalizeTitle("Family 👨‍👩‍👧 plan")).toBe("Family 👨‍👩‍👧 plan");
  });
  it("refuses empty on rename, defaults on create", () => {
    expect(() => normalizeTitle("   ")).toThrow(expect.objectContaining({ code: "invalid-input" }));
    expect(normalizeTitle("x")).toBe("x");
    expect(normalizeNewTitle("  ")).toBe(DEFAULT_DOCUMENT_TITLE);
    expect(normalizeNewTitle(undefined)).toBe(DEFAULT_DOCUMENT_TITLE);
    expect(() => normalizeNewTitle(42)).toThrow(expect.objectContaining({ code: "invalid-input" }));
  });
  it("a title is one line: breaks and tabs become one space, other control characters are refused", () => {
    expect(normalizeTitle("Launch\n\r\nplan\tv2\n")).toBe("Launch plan v2");
    for (const bad of ["a\u0007b", "a\u0000", "\u001bplan", "x\u007fy"]) {
      expect(() => normalizeTitle(bad)).toThrow(expect.objectContaining({ code: "invalid-input", message: "A title cannot contain control characters." }));
    }
    expect(normalizeTitle("Plan — ünïcode ✓")).toBe("Plan — ünïcode ✓");
  });
});

describe("markdown", () => {
  it("accepts exactly MAX_DOCUMENT_MARKDOWN_BYTES UTF-8 bytes, refuses one more", () => {
    expect(checkMarkdown("a".repeat(MAX_DOCUMENT_MARKDOWN_BYTES)).length).toBe(MAX_DOCUMENT_MARKDOWN_BYTES);
    expect(() => checkMarkdown("a".repeat(MAX_DOCUMENT_MARKDOWN_BYTES + 1))).toThrow(
      expect.objectContaining({ code: "too-large" }),
    );
  });
  it("counts bytes, not characters", () => {
    // "é" is 2 bytes: half the limit in characters is exactly the limit in bytes.
    expect(() => checkMarkdown("é".repeat(MAX_DOCUMENT_MARKDOWN_BYTES / 2))).not.toThrow();
    expect(() => checkMarkdown(`${"é".repeat(MAX_DOCUMENT_MARKDOWN_BYTES / 2)}a`)).toThrow(
      expect.objectContaining({ code: "too-large" }),
    );
  });
});

describe("query", () => {
  it("accepts MAX_SEARCH_QUERY_CHARS, refuses one more", () => {
    expect(checkQuery("A".repeat(MAX_SEARCH_QUERY_CHARS))).toBe("A".repeat(MAX_SEARCH_QUERY_CHARS));
    expect(() => checkQuery("a".repeat(MAX_SEARCH_QUERY_CHARS + 1))).toThrow(
      expect.objectContaining({ code: "invalid-input" }),
    );
  });
});

describe("heads", () => {
  const hex = ["a".repeat(64), "b".repeat(64)];
  it("revision and version ids are order-independent digests", () => {
    expect(revisionOf(hex)).toBe(revisionOf([...hex].reverse()));
    expect(revisionOf(hex)).not.toBe(revisionOf([hex[0]]));
    expect(versionIdOf(hex)).not.toBe(revisionOf(hex));
  });
  it("accepts hex and UrlHeads, refuses junk", () => {
    expect(toHexHeads(toUrlHeads(hex))).toEqual(hex);
    expect(toHexHeads(hex)).toEqual(hex);
    expect(() => toHexHeads(["nope"])).toThrow(expect.objectContaining({ code: "invalid-input" }));
    expect(() => toHexHeads("x")).toThrow(expect.objectContaining({ code: "invalid-input" }));
  });
  it("accepts MAX_HEADS_PER_CALL heads, refuses one more", () => {
    const heads = (n: number) => Array.from({ length: n }, (_, i) => i.toString(16).padStart(64, "0"));
    expect(toHexHeads(heads(MAX_HEADS_PER_CALL))).toHaveLength(MAX_HEADS_PER_CALL);
    expect(() => toHexHeads(heads(MAX_HEADS_PER_CALL + 1))).toThrow(expect.objectContaining({ code: "invalid-input" }));
  });
});

describe("text that is not valid Unicode", () => {
  it("refuses half of a surrogate pair in Markdown or a title, naming where, and keeps whole pairs", () => {
    expect(() => checkMarkdown("ok \ud800 then")).toThrow(expect.objectContaining({ code: "invalid-input", details: { index: 3 } }));
    expect(() => checkMarkdown("\ude00")).toThrow(/\\uDE00\) at character 0/);
    expect(() => normalizeTitle("Plan \udbff")).toThrow(expect.objectContaining({ code: "invalid-input" }));
    expect(checkMarkdown("emoji 😀 stays")).toBe("emoji 😀 stays");
    expect(normalizeTitle("😀 Plan")).toBe("😀 Plan");
  });
});

describe("line endings", () => {
  it("stores every body with \\n line endings, whatever the writer sent", () => {
    expect(checkMarkdown("# Plan\r\n\r\none\rtwo\nthree")).toBe("# Plan\n\none\ntwo\nthree");
    expect(checkMarkdown("no breaks")).toBe("no breaks");
  });

  it("counts the size limit on the stored text", () => {
    // One byte over the limit with "\r\n", exactly at it once each becomes "\n".
    const lines = "a\r\n".repeat(MAX_DOCUMENT_MARKDOWN_BYTES / 2);
    expect(checkMarkdown(lines)).toHaveLength(MAX_DOCUMENT_MARKDOWN_BYTES);
  });
});
