import { next as A } from "@automerge/automerge";
import { describe, expect, it } from "vitest";
import { checkedChangeHashes } from "./change-hash.js";

describe("checkedChangeHashes", () => {
  const change = A.getLastLocalChange(A.change(A.init<{ a?: number }>(), (d) => void (d.a = 1)))!;

  it("gives Automerge's own hashes for well-formed changes, small, large (a paste) and from a loaded document", () => {
    let doc = A.from<{ text: string }>({ text: "" });
    doc = A.change(doc, (d) => A.splice(d, ["text"], 0, 0, "z".repeat(60_000)));
    const paste = A.getLastLocalChange(doc)!;
    const loaded = A.getAllChanges(A.load(A.save(doc)));
    for (const batch of [[change], [change, paste], loaded]) {
      expect(checkedChangeHashes(batch)).toEqual(batch.map((c) => A.decodeChange(c).hash));
    }
    expect(checkedChangeHashes([])).toEqual([]);
  });

  it("gives null, never a throw, for a wrong magic, a flipped body byte, a truncated chunk, garbage or a document", () => {
    const wrongMagic = Uint8Array.from(change);
    wrongMagic[0] ^= 0xff;
    const flipped = Uint8Array.from(change);
    flipped[flipped.length - 1] ^= 0x01;
    const relabelled = Uint8Array.from(change);
    relabelled[8] = 2;
    const wholeDocument = A.save(A.from({ a: 1 }));
    for (const bad of [wrongMagic, flipped, change.subarray(0, 8), Uint8Array.of(1, 2, 3), relabelled, wholeDocument]) {
      expect(checkedChangeHashes([change, bad])).toBeNull();
    }
    expect(checkedChangeHashes(["not bytes" as unknown as Uint8Array])).toBeNull();
  });
});
