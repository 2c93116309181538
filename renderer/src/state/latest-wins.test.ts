/**
 * latestWins: however many re-reads are asked for while one runs, one more runs after it, and every caller's promise
 * settles only after a run that began after its call (so a re-read awaited after a change shows that change).
 */
import { describe, expect, it } from "vitest";
import { latestWins } from "./latest-wins.js";

/** A run the test ends by hand, so "in flight" is a fact, not a timing. */
function gatedRuns() {
  const gates: (() => void)[] = [];
  const run = () => new Promise<void>((resolve) => gates.push(resolve));
  return { run, gates, endOldest: () => gates.shift()!() };
}

const settled = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe("latestWins", () => {
  it("runs once now and once more for any number of requests made meanwhile", async () => {
    const { run, gates, endOldest } = gatedRuns();
    let started = 0;
    const reread = latestWins(() => (started++, run()));
    const done: boolean[] = [];
    const first = reread().then(() => (done[0] = true));
    const later = Array.from({ length: 50 }, (_, i) => reread().then(() => (done[i + 1] = true)));
    expect(started).toBe(1);

    endOldest();
    await first;
    await settled();
    expect(started).toBe(2);
    // The requests made during the first run wait for the second, which began after them.
    expect(done.slice(1).some(Boolean)).toBe(false);

    expect(gates.length).toBe(1);
    endOldest();
    await Promise.all(later);
    expect(started).toBe(2);
    // Quiet again: the next request runs at once.
    void reread();
    expect(started).toBe(3);
    endOldest();
  });

  it("goes on after a run that fails", async () => {
    let started = 0;
    const reread = latestWins(async () => {
      started++;
      throw new Error("refused");
    });
    await reread();
    await reread();
    expect(started).toBe(2);
  });
});
