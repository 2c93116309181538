import * as A from "@automerge/automerge";
import { describe, expect, it } from "vitest";
import { changeHash, changeHashes } from "./change-hash.js";

type Doc = {
  text: string;
  items: { n: number; s: string }[];
};

describe("changeHash", () => {
  it("equals Automerge's own hash for small, large, text and map changes", () => {
    let doc = A.from<Doc>({ text: "", items: [] });
    for (let i = 0; i < 120; i++) {
      doc = A.change(doc, (d) => {
        A.splice(d, ["text"], d.text.length, 0, i % 40 === 0 ? "long ".repeat(2000) : "x");
        if (i % 7 === 0) d.items.push({ n: i, s: "y".repeat(i * 10) });
      });
    }
    const all = A.getAllChanges(doc);
    expect(all).toHaveLength(121);
    for (const change of all) expect(changeHash(change)).toBe(A.decodeChange(change).hash);
  });

  it("decodes anything that is not an uncompressed change chunk, and a batch of garbage yields no hashes", () => {
    const doc = A.change(A.init<{ a?: number }>(), (d) => void (d.a = 1));
    const change = A.getLastLocalChange(doc)!;
    const relabelled = Uint8Array.from(change);
    relabelled[8] = 2;
    expect(() => changeHash(relabelled)).toThrow();
    expect(changeHashes([change, Uint8Array.of(1, 2, 3)])).toEqual([]);
    expect(changeHashes([change])).toEqual([A.decodeChange(change).hash]);
  });
});
