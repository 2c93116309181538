import { describe, expect, it } from "vitest";
import type { ChangeMeta } from "../../shared/node/change-meta.js";
import { deterministicCausalOrder } from "./causal-order.js";

const meta = (hash: string, deps: string[], time: number): ChangeMeta => ({
  actor: "a",
  seq: 0,
  hash,
  startOp: 1,
  maxOp: 1,
  deps,
  time,
  message: null,
});

/** A random DAG of `n` changes: each depends on up to two earlier ones. */
function randomHistory(n: number, seed: number): ChangeMeta[] {
  let x = seed;
  const rand = () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const metas: ChangeMeta[] = [];
  for (let i = 0; i < n; i++) {
    const deps = i === 0 ? [] : [...new Set([metas[Math.floor(rand() * i)].hash, metas[Math.floor(rand() * i)].hash])];
    metas.push(meta(`h${String(i).padStart(4, "0")}x${Math.floor(rand() * 1000)}`, deps, Math.floor(rand() * 50)));
  }
  return metas;
}

/** A causal order of `metas` that picks among ready changes at random (seeded): one replica's application order. */
function causalOrderBy(metas: ChangeMeta[], seed: number): ChangeMeta[] {
  let x = seed;
  const rand = () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const placed = new Set<string>();
  const left = [...metas];
  const out: ChangeMeta[] = [];
  while (left.length > 0) {
    const ready = left.filter((m) => m.deps.every((d) => placed.has(d)));
    const pick = ready[Math.floor(rand() * ready.length)];
    left.splice(left.indexOf(pick), 1);
    placed.add(pick.hash);
    out.push(pick);
  }
  return out;
}

describe("deterministicCausalOrder", () => {
  it("is causal and the same whatever causal order it is given", () => {
    const history = randomHistory(300, 7);
    const ordered = deterministicCausalOrder(history);
    const position = new Map(ordered.map((m, i) => [m.hash, i]));
    expect(ordered).toHaveLength(history.length);
    for (const m of ordered) for (const dep of m.deps) expect(position.get(dep)!).toBeLessThan(position.get(m.hash)!);
    // Other valid causal orders of the same changes (as other replicas might hold them) give the same result.
    for (const seed of [1, 2, 3]) {
      const another = causalOrderBy(history, seed);
      expect(another.map((m) => m.hash)).not.toEqual(ordered.map((m) => m.hash));
      expect(deterministicCausalOrder(another).map((m) => m.hash)).toEqual(ordered.map((m) => m.hash));
    }
  });

  it("orders concurrent changes by time, then hash; a linear history keeps its order; missing deps count as placed", () => {
    const root = meta("r", [], 5);
    const late = meta("b", ["r"], 9);
    const early = meta("z", ["r"], 7);
    const tie = meta("a", ["r"], 9);
    expect(deterministicCausalOrder([root, late, tie, early]).map((m) => m.hash)).toEqual(["r", "z", "a", "b"]);
    const chain = [meta("c1", [], 30), meta("c2", ["c1"], 10), meta("c3", ["c2"], 20)];
    expect(deterministicCausalOrder(chain).map((m) => m.hash)).toEqual(["c1", "c2", "c3"]);
    expect(deterministicCausalOrder([meta("x", ["gone"], 1)]).map((m) => m.hash)).toEqual(["x"]);
  });
});
