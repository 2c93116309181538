/**
 * updateTextBounded on real Automerge documents: the text ends equal to the new text exactly (emoji included), and a
 * teammate's concurrent edit on another line survives the merge in its own line.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { next as A } from "@automerge/automerge";
import { updateTextBounded } from "./text-update.js";

type Doc = { text: string };
const TEAMMATE = "ab".repeat(16);
const AGENT = "cd".repeat(16);

function docWith(text: string): A.Doc<Doc> {
  return A.from<Doc>({ text }, { actor: "ef".repeat(16) });
}

function update(doc: A.Doc<Doc>, text: string): A.Doc<Doc> {
  return A.change(A.clone(doc, { actor: AGENT }), (d) => void updateTextBounded(d, ["text"], text));
}

const piece = fc.constantFrom("a", "b", " ", "\n", "\n", "é", "😀", "😁", "👍🏽", "ab\n", "x\n");
const text = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(""));

describe("updateTextBounded", () => {
  it("leaves the Automerge text equal to the new text for random pairs (emoji included)", () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const updated = update(docWith(before), after);
        expect(updated.text).toBe(after);
        // A reloaded copy holds the same text: the splices are in the saved history, not only in the view.
        expect(A.load<Doc>(A.save(updated)).text).toBe(after);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps a teammate's concurrent edit on another line, in that line, after the merge", () => {
    const base = docWith("# Plan\n\nKeep that line.\nChange the red word here.\nTail line.\n");
    const teammate = A.change(A.clone(base, { actor: TEAMMATE }), (d) => {
      // "Keep that line." -> "Keep that line!!." (typed just before its final dot)
      A.splice(d, ["text"], base.text.indexOf("Keep that line.") + 14, 0, "!!");
    });
    const agent = update(base, "# Plan\n\nKeep that line.\nChange the blue word there 😀.\nTail line.\nNew line.\n");
    const merged = A.merge(A.clone(agent), teammate);
    expect(merged.text).toBe("# Plan\n\nKeep that line!!.\nChange the blue word there 😀.\nTail line.\nNew line.\n");
    expect(A.merge(A.clone(teammate), agent).text).toBe(merged.text);
  });

  it("keeps a teammate's edit at the end of a kept line there when the agent appends a line ending alike", () => {
    // A.updateText's character diff reuses the kept line's " line.\n" for the appended "New line.\n", so the
    // teammate's "!" (typed before "Keep that line."'s dot) merged as "New line!.": whole-line trimming keeps it home.
    const base = docWith("a😀b\nKeep that line.\n");
    const teammate = A.change(A.clone(base, { actor: TEAMMATE }), (d) => A.splice(d, ["text"], base.text.indexOf("."), 0, "!"));
    const merged = A.merge(update(base, "a😁b\nKeep that line.\nNew line.\n"), teammate);
    expect(merged.text).toBe("a😁b\nKeep that line!.\nNew line.\n");
  });

  it("keeps a teammate's edit far from a section the agent rewrote entirely", () => {
    const section = (n: number, word: string) => Array.from({ length: 40 }, (_, i) => `${word} ${n}.${i} ${word}\n`).join("");
    const base = docWith(`# Top\n${section(1, "alpha")}${section(2, "beta")}# End\n`);
    const teammate = A.change(A.clone(base, { actor: TEAMMATE }), (d) => A.splice(d, ["text"], base.text.indexOf("# End") + 5, 0, "ing"));
    const rewritten = `# Top\n${section(1, "gamma")}${section(2, "beta")}# End\n`;
    const merged = A.merge(update(base, rewritten), teammate);
    expect(merged.text).toBe(rewritten.replace("# End", "# Ending"));
  });

  it("refuses a path without text", () => {
    expect(() => A.change(docWith(""), (d) => void updateTextBounded(d, ["missing"], "x"))).toThrow(/no text/);
  });
});
