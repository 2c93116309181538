/**
 * The wait of refetchDamagedPlan at its edge: the team's copy arriving within DAMAGED_REFETCH_WAIT_MS is the answer;
 * one not here by then is 'relay-unavailable' (the fetch goes on; main/core/damaged-refetch.test.ts covers it with a
 * real relay). The plan access here is a stand-in whose load resolves when the test says.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { DAMAGED_REFETCH_WAIT_MS } from "../util/limits.js";
import { refetchDamagedPlan } from "./damaged-refetch.js";
import type { PlanAccess } from "./plan-access.js";

afterEach(() => vi.useRealTimers());

function accessLoadingIn(ms: number | null): { access: PlanAccess; setAside: string[] } {
  const setAside: string[] = [];
  const plan = { title: "Team plan" };
  const access = {
    parseId: (id: string) => id,
    isDamaged: () => true,
    isShared: () => true,
    repo: { handles: {}, storageSubsystem: undefined, delete: () => undefined },
    forgetUse: () => undefined,
    changed: { add: () => undefined },
    load: () => (ms === null ? new Promise(() => undefined) : new Promise((resolve) => setTimeout(() => resolve({ handle: {}, plan }), ms))),
    detailOf: (_handle: unknown, p: typeof plan) => ({ id: "plan", title: p.title }),
  } as unknown as PlanAccess;
  return { access, setAside };
}

describe("refetchDamagedPlan's wait (DAMAGED_REFETCH_WAIT_MS)", () => {
  it("answers with the plan when it arrives 1 ms before the wait ends", async () => {
    vi.useFakeTimers();
    const { access, setAside } = accessLoadingIn(DAMAGED_REFETCH_WAIT_MS - 1);
    const answer = refetchDamagedPlan(access, "plan", (id) => void setAside.push(id));
    await vi.advanceTimersByTimeAsync(DAMAGED_REFETCH_WAIT_MS);
    await expect(answer).resolves.toMatchObject({ title: "Team plan" });
    expect(setAside).toEqual(["plan"]);
  });

  it("answers 'relay-unavailable' when it has not arrived once the wait is over", async () => {
    vi.useFakeTimers();
    const { access } = accessLoadingIn(null);
    const answer = refetchDamagedPlan(access, "plan", () => undefined);
    const outcome = expect(answer).rejects.toMatchObject({ code: "relay-unavailable", details: { documentId: "plan" } });
    await vi.advanceTimersByTimeAsync(DAMAGED_REFETCH_WAIT_MS);
    await outcome;
  });
});
