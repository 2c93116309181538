/**
 * A per-address budget of GitHub sign-in checks that admit nobody. Exists because every unknown token presented at
 * the relay costs a request to GitHub: unbounded, one client sending random tokens makes the relay spend its GitHub
 * rate limit (and look like a credential-stuffing source) until GitHub refuses it, after which admission fails
 * closed for every member.
 *
 * What must stay true: a check is taken from the budget before GitHub is asked (so a burst of parallel attempts is
 * bounded too) and given back when it admitted someone; an address over budget is refused without asking GitHub
 * until its window ends; memory is bounded (the oldest address is forgotten first).
 */
export class AttemptBudget {
  readonly #windows = new Map<string, { startedAt: number; used: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxAddresses: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one attempt for `address`, or says how long until its window ends when the budget is spent. */
  take(address: string): { ok: true } | { ok: false; retryAfterMs: number } {
    const at = this.now();
    let entry = this.#windows.get(address);
    if (!entry || at - entry.startedAt >= this.windowMs) {
      this.#windows.delete(address);
      if (this.#windows.size >= this.maxAddresses) this.#windows.delete(this.#windows.keys().next().value as string);
      entry = { startedAt: at, used: 0 };
      this.#windows.set(address, entry);
    }
    if (entry.used >= this.limit) return { ok: false, retryAfterMs: entry.startedAt + this.windowMs - at };
    entry.used++;
    return { ok: true };
  }

  /** Gives back an attempt that admitted someone. */
  refund(address: string): void {
    const entry = this.#windows.get(address);
    if (entry && entry.used > 0) entry.used--;
  }
}
