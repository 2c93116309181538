import { describe, expect, it } from "vitest";
import { next as A } from "@automerge/automerge";
import { ChangeSet, Text } from "@codemirror/state";
import { replacementOf, spliceChanges, textChangesOf } from "./automerge-text-changes.js";

type Doc = { text: string; title?: string };

/** The patches of one change made by `edit` on a document holding `text`. */
function patchesOf(text: string, edit: (d: Doc) => void): { before: string; after: string; patches: A.Patch[] } {
  const doc = A.from<Doc>({ text, title: "t" });
  const heads = A.getHeads(doc);
  const next = A.change(doc, edit);
  return { before: text, after: next.text, patches: A.diff(next, heads, A.getHeads(next)) };
}

describe("textChangesOf", () => {
  it("follows inserts and deletes in one change, each against the text the one before left", () => {
    const { before, after, patches } = patchesOf("hello world", (d) => {
      A.splice(d, ["text"], 0, 0, ">> ");
      A.splice(d, ["text"], 9, 5, "");
      A.splice(d, ["text"], 9, 0, "there");
    });
    const changes = textChangesOf(patches, before.length);
    expect(changes).not.toBe("unknown");
    expect((changes as ChangeSet).apply(textOf(before)).toString()).toBe(after);
  });

  it("ignores fields other than the body and returns null when the body did not change", () => {
    const { patches } = patchesOf("same", (d) => {
      d.title = "other";
    });
    expect(textChangesOf(patches, 4)).toBeNull();
  });

  it("treats a new string written over the body as replacing all of it", () => {
    const { before, after, patches } = patchesOf("old body", (d) => {
      d.text = "brand new";
    });
    const changes = textChangesOf(patches, before.length);
    expect((changes as ChangeSet).apply(textOf(before)).toString()).toBe(after);
  });

  it("says unknown for a body it cannot follow (not text) or a patch outside the text's length", () => {
    expect(textChangesOf([{ action: "put", path: ["text"], value: 5 }], 3)).toBe("unknown");
    expect(textChangesOf([{ action: "del", path: ["text", 2], length: 5 }], 3)).toBe("unknown");
  });
});

describe("spliceChanges", () => {
  it("does to an Automerge text what the ChangeSet does to the editor's text, for random multi-range edits", () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 200; round++) {
      const text = "abcdefghij".repeat(1 + random(5));
      const specs = [];
      let at = 0;
      while (at < text.length && specs.length < 4) {
        const from = at + random(Math.max(1, text.length - at));
        const to = Math.min(text.length, from + random(4));
        specs.push({ from, to, insert: random(2) ? "X".repeat(random(3)) : "" });
        at = to + 1;
      }
      const changes = ChangeSet.of(specs, text.length);
      const doc = A.change(A.from<Doc>({ text }), (d) => spliceChanges(d, changes));
      expect(doc.text).toBe(changes.apply(textOf(text)).toString());
    }
  });
});

describe("replacementOf", () => {
  it("keeps the common prefix and suffix and is null for equal texts", () => {
    expect(replacementOf("same", "same")).toBeNull();
    const change = replacementOf("hello brave world", "hello new world")!;
    expect(change.apply(textOf("hello brave world")).toString()).toBe("hello new world");
    const touched: number[] = [];
    change.iterChangedRanges((fromA, toA) => touched.push(fromA, toA));
    expect(touched).toEqual([6, 11]);
  });
});

function textOf(s: string): Text {
  return Text.of(s.split("\n"));
}
