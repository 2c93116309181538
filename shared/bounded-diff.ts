/**
 * Myers' O((N+M)·D) shortest-edit-script diff over integer tokens (line ids, code points), with a work budget: the
 * diff gives up (returns null) as soon as it has done more than `budget` steps, so a caller can fall back to replacing the
 * whole range instead of spending time quadratic in the text's size. What must stay true: a non-null answer is a
 * longest common subsequence of `a` and `b` as ascending, non-overlapping diagonal runs; the work counted is what the
 * loops really did (one step per diagonal visited and per matched token followed), and an answer comes back iff that
 * work, counted the same way without a budget, is at most the budget; time is bounded by the budget plus one snake;
 * memory is the trace of the frontier, about twice the budget in integers at most.
 */

/** A run of `length` equal tokens: a[aStart + t] === b[bStart + t] for t in [0, length). */
export interface CommonRun {
  aStart: number;
  bStart: number;
  length: number;
}

export interface BoundedDiff {
  /** Ascending, non-overlapping common runs (null: the budget ran out first). */
  runs: CommonRun[] | null;
  /** Steps spent, including those of a diff that gave up. */
  work: number;
}

/** The common runs of `a` and `b` found by Myers' greedy forward search, or null past `budget` steps. */
export function boundedDiff(a: ArrayLike<number>, b: ArrayLike<number>, budget: number): BoundedDiff {
  const n = a.length;
  const m = b.length;
  // Nothing can be common: no search (and no work) needed.
  if (n === 0 || m === 0) return { runs: [], work: 0 };
  const maxD = n + m;
  const offset = maxD + 1;
  // v[offset + k]: the furthest x reached on diagonal k (y = x - k) with the current number of edits.
  const v = new Int32Array(2 * maxD + 3);
  // trace[d]: the frontier after d edits, for diagonals -d..d (index k + d), to walk the path back.
  const trace: Int32Array[] = [];
  let work = 0;
  for (let d = 0; d <= maxD; d++) {
    for (let k = -d; k <= d; k += 2) {
      work++;
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
        work++;
      }
      v[offset + k] = x;
      // Checked per diagonal, before success: the diff answers iff its whole work is within the budget.
      if (work > budget) return { runs: null, work };
      if (x >= n && y >= m) {
        trace.push(v.slice(offset - d, offset + d + 1));
        return { runs: backtrack(trace, n, m), work };
      }
    }
    trace.push(v.slice(offset - d, offset + d + 1));
  }
  // Unreachable: after n + m edits every diagonal search has ended.
  return { runs: null, work };
}

/** Walks the recorded frontiers back from (n, m), collecting each round's diagonal (snake) as a common run. */
function backtrack(trace: Int32Array[], n: number, m: number): CommonRun[] {
  const runs: CommonRun[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const prev = trace[d - 1];
    const at = (k: number) => prev[k + d - 1];
    const k = x - y;
    // The same choice the forward pass made on reaching diagonal k in round d.
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const startX = down ? prevX : prevX + 1;
    if (x > startX) runs.push({ aStart: startX, bStart: startX - k, length: x - startX });
    x = prevX;
    y = prevX - prevK;
  }
  if (x > 0) runs.push({ aStart: 0, bStart: 0, length: x });
  return runs.reverse();
}
