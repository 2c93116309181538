import { next as A } from "@automerge/automerge";
import { describe, expect, it } from "vitest";
import { readChangeHeader } from "./change-header.js";

function expected(bytes: Uint8Array) {
  const c = A.decodeChange(bytes);
  return { deps: c.deps, actor: c.actor, seq: c.seq, startOp: c.startOp, time: c.time, message: c.message ?? null };
}

describe("a change's header read without its operations", () => {
  it("equals A.decodeChange for keystrokes, messages, an empty message, times before 1970 and concurrent actors", () => {
    let a = A.from<{ text: string }>({ text: "" });
    let b = A.clone(a, { actor: "0b0b0b0b" });
    for (let i = 0; i < 5; i++) a = A.change(a, (d) => A.splice(d, ["text"], i, 0, "é"));
    a = A.change(a, { message: "agent: Planner", time: 1_790_000_000 }, (d) => A.splice(d, ["text"], 0, 0, "x"));
    a = A.emptyChange(a, { message: "" });
    b = A.change(b, { message: "Restored “v1” ✓" }, (d) => A.splice(d, ["text"], 0, 0, "q".repeat(10_000)));
    a = A.merge(a, b);
    a = A.change(a, { time: -5 }, (d) => A.splice(d, ["text"], 0, 1));
    const all = A.getAllChanges(a);
    expect(all.map((bytes) => readChangeHeader(bytes)?.header)).toEqual(all.map(expected));
  });

  it("gives null for a chunk that is not an uncompressed change, and throws on a cut-off one", () => {
    const change = A.getLastLocalChange(A.change(A.from({ text: "" }), { message: "m" }, (d) => A.splice(d, ["text"], 0, 0, "x")))!;
    const compressed = change.slice();
    compressed[8] = 2;
    expect(readChangeHeader(compressed)).toBeNull();
    expect(readChangeHeader(new Uint8Array([1, 2, 3]))).toBeNull();
    expect(() => readChangeHeader(change.slice(0, 20))).toThrow(RangeError);
  });
});
