import { describe, expect, it } from "vitest";
import { AttemptBudget } from "./attempt-budget.js";

describe("AttemptBudget", () => {
  it("allows `limit` attempts per address per window, then says how long until the window ends", () => {
    let now = 1000;
    const budget = new AttemptBudget(2, 60_000, 10, () => now);
    expect(budget.take("a")).toEqual({ ok: true });
    expect(budget.take("a")).toEqual({ ok: true });
    now += 15_000;
    expect(budget.take("a")).toEqual({ ok: false, retryAfterMs: 45_000 });
    expect(budget.take("b")).toEqual({ ok: true });
    now += 45_000;
    expect(budget.take("a")).toEqual({ ok: true });
  });

  it("gives back an attempt that admitted someone", () => {
    const budget = new AttemptBudget(1, 60_000, 10, () => 0);
    expect(budget.take("a").ok).toBe(true);
    budget.refund("a");
    expect(budget.take("a").ok).toBe(true);
    expect(budget.take("a").ok).toBe(false);
  });

  it("remembers at most maxAddresses, forgetting the oldest first", () => {
    const budget = new AttemptBudget(1, 60_000, 2, () => 0);
    budget.take("a");
    budget.take("b");
    budget.take("c");
    expect(budget.take("a").ok).toBe(true);
    expect(budget.take("c").ok).toBe(false);
  });
});
