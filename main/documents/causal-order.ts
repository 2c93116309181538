/**
 * One order of a document's changes that every replica computes the same: causal (a change after all it depends on),
 * and among changes that are all ready, the earliest recorded time first, then the smaller hash. Exists because
 * Automerge hands changes back in the order this replica applied them, which differs between devices when people
 * wrote concurrently: version history grouped from that order gave teammates different versions (and authors) under
 * the same version id (data-integrity audit). For a history without concurrency the order is Automerge's own.
 */
import type { ChangeMeta } from "../../shared/node/change-meta.js";

function earlier(a: ChangeMeta, b: ChangeMeta): boolean {
  return a.time !== b.time ? a.time < b.time : a.hash < b.hash;
}

/** A binary min-heap of the changes whose dependencies are all placed. */
class ReadyHeap {
  readonly #items: ChangeMeta[] = [];

  get size(): number {
    return this.#items.length;
  }

  push(meta: ChangeMeta): void {
    const items = this.#items;
    items.push(meta);
    for (let i = items.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!earlier(items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }

  pop(): ChangeMeta {
    const items = this.#items;
    const top = items[0];
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      for (let i = 0; ; ) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < items.length && earlier(items[left], items[least])) least = left;
        if (right < items.length && earlier(items[right], items[least])) least = right;
        if (least === i) break;
        [items[i], items[least]] = [items[least], items[i]];
        i = least;
      }
    }
    return top;
  }
}

/**
 * `metas` (every change of a document, in any causal order) in the replica-independent order. A dependency missing
 * from `metas` counts as placed (a change waiting on one is not in a document's history anyway).
 */
export function deterministicCausalOrder(metas: readonly ChangeMeta[]): ChangeMeta[] {
  const present = new Set(metas.map((m) => m.hash));
  const waitingOn = new Map<string, number>();
  const dependents = new Map<string, ChangeMeta[]>();
  const ready = new ReadyHeap();
  for (const meta of metas) {
    let count = 0;
    for (const dep of meta.deps) {
      if (!present.has(dep)) continue;
      count++;
      const list = dependents.get(dep);
      if (list) list.push(meta);
      else dependents.set(dep, [meta]);
    }
    if (count === 0) ready.push(meta);
    else waitingOn.set(meta.hash, count);
  }
  const ordered: ChangeMeta[] = [];
  while (ready.size > 0) {
    const meta = ready.pop();
    ordered.push(meta);
    for (const next of dependents.get(meta.hash) ?? []) {
      const left = waitingOn.get(next.hash)! - 1;
      if (left === 0) {
        waitingOn.delete(next.hash);
        ready.push(next);
      } else waitingOn.set(next.hash, left);
    }
  }
  return ordered;
}
