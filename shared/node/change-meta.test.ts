import { describe, expect, it } from "vitest";
import { next as A } from "@automerge/automerge";
import { changeMetas, changeMetasSince } from "./change-meta.js";

function expected(bytes: Uint8Array) {
  const c = A.decodeChange(bytes);
  return { actor: c.actor, seq: c.seq, hash: c.hash, startOp: c.startOp, maxOp: c.startOp + c.ops.length - 1, deps: c.deps, time: c.time, message: c.message ?? null };
}

describe("change metadata read from the header", () => {
  it("equals A.decodeChange for keystrokes, maps, lists, deletes, a 100 KB paste, empty changes and concurrent actors", () => {
    let a = A.from<{ text: string; n?: number; list?: number[]; authors?: Record<string, string> }>({ text: "" });
    let b = A.clone(a, { actor: "0b0b0b0b" });
    for (let i = 0; i < 40; i++) a = A.change(a, (d) => A.splice(d, ["text"], i, 0, "é"));
    a = A.change(a, { message: "Restored “v1” ✓", time: 1_790_000_000 }, (d) => {
      d.n = 2 ** 40;
      d.list = [1, 2, 3];
      d.authors = { x: "Ada" };
    });
    a = A.change(a, (d) => A.splice(d, ["text"], 3, 20));
    a = A.emptyChange(a, { message: "" });
    b = A.change(b, (d) => A.splice(d, ["text"], 0, 0, "q".repeat(100_000)));
    a = A.merge(a, b);
    a = A.change(a, { time: -5 }, (d) => A.splice(d, ["text"], 0, 1));
    const all = A.getAllChanges(a);
    expect(all.length).toBe(46);
    expect(changeMetas(all)).toEqual(all.map(expected));
  });

  it("since given heads: only the later changes", () => {
    let doc = A.from({ text: "" });
    doc = A.change(doc, (d) => A.splice(d, ["text"], 0, 0, "a"));
    const heads = A.getHeads(doc);
    doc = A.change(doc, (d) => A.splice(d, ["text"], 1, 0, "b"));
    const metas = changeMetasSince(doc, heads);
    expect(metas.map((m) => m.deps)).toEqual([heads]);
    expect(metas[0].maxOp).toBe(metas[0].startOp);
  });

  it("throws on bytes that are not a change rather than inventing metadata", () => {
    const change = A.getLastLocalChange(A.change(A.from({ text: "" }), (d) => A.splice(d, ["text"], 0, 0, "x")))!;
    const broken = change.slice();
    broken[broken.length - 3] ^= 0xff;
    expect(() => changeMetas([broken])).toThrow();
    expect(() => changeMetas([new Uint8Array([1, 2, 3])])).toThrow();
  });
});
