/**
 * Spacing Automerge applies by what they cost, measured, not assumed (Automerge 3 walked the whole document on every
 * apply; 2.2.9 does not, but a big batch or paste still costs); whoever applies received changes (a fast-path
 * receiver, the relay's copy) times each apply and waits in proportion before the document's next. One rule for both,
 * with each caller's own floor, share and cap (shared/limits.ts).
 */

export interface SpacingRule {
  /** The shortest spacing, whatever the cost. */
  floorMs: number;
  /** The share of the thread a document's applies may take: spacing >= cost / share. */
  busyShare: number;
  /** The longest spacing, however slow the last apply. */
  maxMs: number;
}

/** How long after an apply began, which took `costMs`, the same document's next apply may begin. */
export function spacingAfter(costMs: number, rule: SpacingRule): number {
  return Math.max(rule.floorMs, Math.min(rule.maxMs, costMs / rule.busyShare));
}

/** Runs `work` and returns how long it took in ms on `now` (a monotonic clock; tests inject one). */
export function timed(work: () => void, now: () => number = () => performance.now()): number {
  const start = now();
  work();
  return Math.max(0, now() - start);
}
