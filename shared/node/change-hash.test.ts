import { next as A } from "@automerge/automerge";
import { describe, expect, it } from "vitest";
import { verifiedChangeHashes } from "./change-hash.js";

type Doc = {
  text: string;
  items: { n: number; s: string }[];
};

describe("verifiedChangeHashes", () => {
  const change = A.getLastLocalChange(A.change(A.init<{ a?: number }>(), (d) => void (d.a = 1)))!;

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
    expect(verifiedChangeHashes(all)).toEqual(all.map((change) => A.decodeChange(change).hash));
  });

  it("gives Automerge's own hashes for well-formed changes, small, large and from a loaded document", () => {
    let doc = A.from<{ text: string }>({ text: "" });
    doc = A.change(doc, (d) => A.splice(d, ["text"], 0, 0, "z".repeat(5000)));
    const big = A.getLastLocalChange(doc)!;
    const loaded = A.getAllChanges(A.load(A.save(doc)));
    for (const batch of [[change], [change, big], loaded]) {
      expect(verifiedChangeHashes(batch)).toEqual(batch.map((c) => A.decodeChange(c).hash));
    }
  });

  it("refuses a batch with a wrong magic, a flipped body byte (checksum), a truncated chunk or garbage", () => {
    const wrongMagic = Uint8Array.from(change);
    wrongMagic[0] ^= 0xff;
    const flipped = Uint8Array.from(change);
    flipped[flipped.length - 1] ^= 0x01;
    for (const bad of [wrongMagic, flipped, change.subarray(0, 8), Uint8Array.of(1, 2, 3)]) {
      expect(verifiedChangeHashes([change, bad])).toBeNull();
    }
    const relabelled = Uint8Array.from(change);
    relabelled[8] = 2;
    expect(verifiedChangeHashes([relabelled])).toBeNull();
    expect(verifiedChangeHashes([])).toEqual([]);
  });
});
