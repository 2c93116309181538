/**
 * User-timing marks of the last document open ("chopin:snapshot-received", "chopin:snapshot-shown",
 * "chopin:replica-load-start", "chopin:replica-ready", "chopin:editable"), read by the cold-open benchmark.
 * What must stay true: each mark replaces its previous one, so nothing accumulates over a long session, and each
 * step is marked where the window first sees it (once per open).
 */
export function markOpening(step: string): void {
  if (typeof performance === "undefined" || typeof performance.mark !== "function") return;
  performance.clearMarks(`chopin:${step}`);
  performance.mark(`chopin:${step}`);
}
