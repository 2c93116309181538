import { describe, expect, it } from "vitest";
import { digestOf, planBlocks } from "./plan-blocks.js";

describe("a plan's top-level blocks", () => {
  it("reads headings, paragraphs, lists, code, quotes, tables and rules, each with its source and digest", () => {
    const text = "# Launch\n\nWe ship in May.\n\n- one\n- two\n\n```ts\n# not a heading\n```\n\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n---\n\nSetext\n===\n";
    const blocks = planBlocks(text);
    expect(blocks.map((b) => b.kind)).toEqual(["heading", "paragraph", "list", "code", "quote", "table", "rule", "heading"]);
    expect(blocks.map((b) => b.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(blocks[2]!.markdown).toBe("- one\n- two");
    expect(blocks[3]!.markdown).toBe("```ts\n# not a heading\n```");
    expect(blocks[0]!.digest).toBe(digestOf("# Launch"));
    expect(blocks[0]!.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it("gives nothing for an empty or blank plan, and the same digest for the same source anywhere", () => {
    expect(planBlocks("")).toEqual([]);
    expect(planBlocks("\n\n  \n")).toEqual([]);
    const [a] = planBlocks("Same words.");
    const [, b] = planBlocks("# Head\n\nSame words.\n");
    expect(a!.digest).toBe(b!.digest);
  });
});
