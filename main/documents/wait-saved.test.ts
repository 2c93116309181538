import { afterEach, describe, expect, it, vi } from "vitest";
import { next as A } from "@automerge/automerge";
import { encodeHeads } from "@automerge/automerge-repo";
import { WAIT_SAVED_TIMEOUT_MS } from "../util/limits.js";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import { makeFixture, type Fixture } from "./test-fixture.js";

let fx: Fixture;
afterEach(async () => {
  await fx?.close();
});

describe("waitSaved", () => {
  it("resolves once the core holds the heads and storage has them", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "T", markdown: "a" });
    const handle = await fx.repo.find<PlanDocument>(id as never);
    // The renderer's replica makes a change the core has not received yet.
    const theirs = A.change(A.clone(handle.doc()), (d) => A.splice(d, ["text"], 1, 0, "b"));
    const heads = encodeHeads(A.getHeads(theirs));
    const saves = fx.storage.saves;
    const pending = fx.service.waitSaved(id, heads);
    let settled = false;
    void pending.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    handle.update((doc) => A.merge(doc, theirs));
    const receipt = await pending;
    expect(receipt).toEqual({ documentId: id, savedAt: fx.clock.now });
    expect(fx.storage.saves).toBeGreaterThan(saves);
  });

  it("accepts hex heads already present", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "T" });
    const handle = await fx.repo.find<PlanDocument>(id as never);
    await expect(fx.service.waitSaved(id, A.getHeads(handle.doc()))).resolves.toMatchObject({ documentId: id });
  });

  it("times out with 'timeout' when the heads never arrive", async () => {
    fx = await makeFixture({ waitSavedTimeoutMs: 50 });
    const { id } = await fx.service.createDocument({ title: "T" });
    await expect(fx.service.waitSaved(id, ["f".repeat(64)])).rejects.toMatchObject({ code: "timeout" });
    await expect(fx.service.waitSaved(id, ["junk"])).rejects.toMatchObject({ code: "invalid-input" });
  });

  it("by default waits WAIT_SAVED_TIMEOUT_MS for heads that never arrive, and not a millisecond less", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "T" });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let outcome: unknown = null;
      const pending = fx.service.waitSaved(id, ["f".repeat(64)]).catch((e: unknown) => (outcome = e));
      // The wait arms its timer once the document is found; setImmediate (not faked) lets that happen.
      while (vi.getTimerCount() === 0) await new Promise((resolve) => setImmediate(resolve));
      vi.advanceTimersByTime(WAIT_SAVED_TIMEOUT_MS - 1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(outcome).toBeNull();
      vi.advanceTimersByTime(1);
      await pending;
      expect(outcome).toMatchObject({ code: "timeout" });
    } finally {
      vi.useRealTimers();
    }
  });
});
