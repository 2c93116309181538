import { describe, expect, it } from "vitest";
import { TEAM_PREFETCH_CONCURRENCY } from "../util/limits.js";
import { TeamPrefetch } from "./team-prefetch.js";

/** A fetch per id that the test settles by hand; `ids` and `heldAtStart` may change between runs. */
function harness(ids: string[], heldAtStart: string[] = []) {
  const pending = new Map<string, { resolve: () => void; reject: () => void }>();
  const asked: string[] = [];
  const prefetch = new TeamPrefetch({
    teamIds: () => ids,
    held: (id) => heldAtStart.includes(id),
    fetch: (id) =>
      new Promise<void>((resolve, reject) => {
        asked.push(id);
        pending.set(id, { resolve, reject: () => reject(new Error("offline")) });
      }),
  });
  const settle = async (id: string, ok: boolean) => {
    const p = pending.get(id)!;
    pending.delete(id);
    if (ok) p.resolve();
    else p.reject();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { prefetch, asked, pending, settle };
}

describe("TeamPrefetch", () => {
  it("fetches what is missing, TEAM_PREFETCH_CONCURRENCY at a time, and skips what is held", async () => {
    const ids = Array.from({ length: TEAM_PREFETCH_CONCURRENCY + 2 }, (_, i) => `d${i}`);
    const h = harness([...ids, "held"], ["held"]);
    h.prefetch.run();
    expect(h.asked).toEqual(ids.slice(0, TEAM_PREFETCH_CONCURRENCY));
    h.prefetch.run();
    expect(h.asked).toHaveLength(TEAM_PREFETCH_CONCURRENCY);
    await h.settle("d0", true);
    expect(h.asked).toEqual(ids.slice(0, TEAM_PREFETCH_CONCURRENCY + 1));
    while (h.pending.size > 0) {
      expect(h.pending.size).toBeLessThanOrEqual(TEAM_PREFETCH_CONCURRENCY);
      await h.settle(h.pending.keys().next().value!, true);
    }
    expect(h.prefetch.fetched).toBe(ids.length);
    expect(h.asked).not.toContain("held");
    expect(h.prefetch.busy).toBe(false);
  });

  it("leaves a failed fetch for retryFailed(), not the next run, and never fetches again what it got", async () => {
    const h = harness(["a"]);
    h.prefetch.run();
    await h.settle("a", false);
    expect(h.prefetch.busy).toBe(false);
    h.prefetch.run();
    expect(h.asked).toEqual(["a"]);
    h.prefetch.retryFailed();
    expect(h.asked).toEqual(["a", "a"]);
    await h.settle("a", true);
    h.prefetch.retryFailed();
    expect(h.asked).toEqual(["a", "a"]);
  });

  it("remembers only ids the list still names, however many come and go over a session", async () => {
    const names: string[] = [];
    const held: string[] = [];
    const h = harness(names, held);
    for (let i = 0; i < 1000; i++) {
      // The list names three plans at a time; each run sees one leave and a new one come, held here or failing.
      names.splice(0, names.length, `p${i}`, `p${i + 1}`, `p${i + 2}`);
      if (i % 2 === 0) held.push(`p${i + 2}`);
      h.prefetch.run();
      while (h.pending.size > 0) await h.settle(h.pending.keys().next().value!, false);
      expect(h.prefetch.remembered).toBeLessThanOrEqual(names.length);
    }
  });

  it("looks up again an id the list dropped and names anew, and one whose plan was deleted here", async () => {
    const names = ["a", "b"];
    const held = ["a", "b"];
    const h = harness(names, held);
    h.prefetch.run();
    expect(h.asked).toEqual([]);
    // "a" leaves the list and this device; "b" is deleted here while the list still names it (a teammate's edit of
    // its entry, concurrent with the delete, kept it there).
    names.splice(0, names.length, "b");
    held.splice(0, held.length);
    h.prefetch.run();
    h.prefetch.forget("b");
    names.push("a");
    h.prefetch.run();
    expect([...h.asked].sort()).toEqual(["a", "b"]);
    await h.settle("a", true);
    await h.settle("b", true);
    expect(h.prefetch.fetched).toBe(2);
  });

  it("does nothing after stop()", () => {
    const h = harness(["a"]);
    h.prefetch.stop();
    h.prefetch.run();
    expect(h.asked).toEqual([]);
  });
});
