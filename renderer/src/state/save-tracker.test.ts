import { describe, expect, it, vi } from "vitest";
import { ChopinError } from "../../../shared/errors.js";
import { SAVE_CONFIRM_RETRY_MS } from "../limits.js";
import type { SaveReceipt } from "../../../shared/api.js";
import { SAVE_CONFIRM_MIN_GAP_MS, SAVE_WAITING_FOR_CORE, SaveTracker, type SaveState } from "./save-tracker.js";
import { waitFor } from "../../../shared/wait-for.js";

function controllable() {
  const asks: { heads: string[]; resolve: (r: SaveReceipt) => void; reject: (e: unknown) => void }[] = [];
  const waitSaved = (_id: string, heads: string[]) =>
    new Promise<SaveReceipt>((resolve, reject) => asks.push({ heads, resolve, reject }));
  return { asks, waitSaved };
}

describe("SaveTracker", () => {
  it("says Saved only when the latest heads are confirmed", async () => {
    const { asks, waitSaved } = controllable();
    const states: SaveState[] = [];
    const tracker = new SaveTracker({ documentId: "d", waitSaved, onState: (s) => states.push(s) });
    tracker.headsChanged(["h1"]);
    expect(tracker.state.kind).toBe("saving");
    tracker.headsChanged(["h2"]);
    tracker.headsChanged(["h3"]);
    expect(asks.map((a) => a.heads)).toEqual([["h1"]]);
    asks[0].resolve({ documentId: "d", savedAt: 1 });
    await waitFor(() => asks.length === 2, "asks.length === 2");
    expect(tracker.state.kind).toBe("saving");
    expect(asks[1].heads).toEqual(["h3"]);
    asks[1].resolve({ documentId: "d", savedAt: 2 });
    await waitFor(() => tracker.state.kind === "saved", "tracker.state.kind === \"saved\"");
    expect(tracker.state).toEqual({ kind: "saved", at: 2 });
    expect(states.map((s) => s.kind)).toEqual(["saving", "saved"]);
  });

  it("reports every confirmation, including heads that were no longer the latest", async () => {
    const { asks, waitSaved } = controllable();
    const confirmed: string[][] = [];
    const tracker = new SaveTracker({ documentId: "d", waitSaved, onState: () => {}, onConfirmed: (h) => confirmed.push(h) });
    tracker.headsChanged(["h1"]);
    tracker.headsChanged(["h2"]);
    asks[0].resolve({ documentId: "d", savedAt: 1 });
    await waitFor(() => asks.length === 2, "asks.length === 2");
    expect(confirmed).toEqual([["h1"]]);
    asks[1].reject(new ChopinError("timeout", "no"));
    await waitFor(() => tracker.state.kind === "failed", "tracker.state.kind === \"failed\"");
    expect(confirmed).toEqual([["h1"]]);
    tracker.stop();
  });

  it("shows a failed confirmation and asks again", async () => {
    const { asks, waitSaved } = controllable();
    const tracker = new SaveTracker({ documentId: "d", waitSaved, onState: () => {}, retryMs: 5 });
    tracker.headsChanged(["h1"]);
    asks[0].reject(new ChopinError("timeout", "The core did not confirm the save in time."));
    await waitFor(() => tracker.state.kind === "failed", "tracker.state.kind === \"failed\"");
    expect(tracker.state).toEqual({ kind: "failed", message: "The core did not confirm the save in time." });
    await waitFor(() => asks.length === 2, "asks.length === 2");
    asks[1].resolve({ documentId: "d", savedAt: 9 });
    await waitFor(() => tracker.state.kind === "saved", "tracker.state.kind === \"saved\"");
    tracker.stop();
  });

  it("keeps saying not saved through edits made after a failure, until a confirmation works", async () => {
    const { asks, waitSaved } = controllable();
    const states: SaveState[] = [];
    // Long enough for the edit below to come before the retry, which waits for the retry without a fixed sleep.
    const tracker = new SaveTracker({ documentId: "d", waitSaved, onState: (s) => states.push(s), retryMs: 200 });
    tracker.headsChanged(["h1"]);
    asks[0].reject(new ChopinError("core-unavailable", "gone"));
    await waitFor(() => tracker.state.kind === "failed", "tracker.state.kind === \"failed\"");
    tracker.headsChanged(["h2"]);
    expect(tracker.state).toEqual({ kind: "failed", message: SAVE_WAITING_FOR_CORE });
    // The retry asks for the newest heads; while it is out, the failure still stands.
    await waitFor(() => asks.length === 2, "asks.length === 2");
    expect(asks[1].heads).toEqual(["h2"]);
    tracker.headsChanged(["h3"]);
    expect(tracker.state.kind).toBe("failed");
    asks[1].resolve({ documentId: "d", savedAt: 7 });
    await waitFor(() => asks.length === 3, "asks.length === 3");
    expect(tracker.state.kind).toBe("failed");
    asks[2].resolve({ documentId: "d", savedAt: 8 });
    await waitFor(() => tracker.state.kind === "saved", "tracker.state.kind === \"saved\"");
    expect(states.map((s) => s.kind)).toEqual(["saving", "failed", "saved"]);
    tracker.stop();
  });

  it("while the link to the core is down, says the edits are kept rather than the bridge's 'try again'", async () => {
    const { asks, waitSaved } = controllable();
    const tracker = new SaveTracker({ documentId: "d", waitSaved, onState: () => {}, retryMs: 60_000 });
    tracker.headsChanged(["h1"]);
    asks[0].reject(new ChopinError("core-unavailable", "Chopin's core cannot be reached right now, so nothing was changed. Try again once it is back."));
    await waitFor(() => tracker.state.kind === "failed", "tracker.state.kind === \"failed\"");
    expect(tracker.state).toEqual({ kind: "failed", message: SAVE_WAITING_FOR_CORE });
    tracker.stop();
  });

  it("asks again after a failure SAVE_CONFIRM_RETRY_MS later by default, not a millisecond sooner", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const { asks, waitSaved } = controllable();
      const tracker = new SaveTracker({ documentId: "d", waitSaved, onState: () => {} });
      tracker.headsChanged(["h1"]);
      asks[0].reject(new ChopinError("timeout", "no"));
      // setImmediate is not faked: this lets the rejection settle without moving the fake clock.
      while (tracker.state.kind !== "failed") await new Promise((resolve) => setImmediate(resolve));
      vi.advanceTimersByTime(SAVE_CONFIRM_RETRY_MS - 1);
      await Promise.resolve();
      expect(asks).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(asks).toHaveLength(2);
      tracker.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it("asks a fast core once per SAVE_CONFIRM_MIN_GAP_MS while keys come, not once a key, and ends Saved on the latest", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const asked: string[][] = [];
      const confirmed: string[][] = [];
      // A core that confirms at once: before the gap, every key was one more waitSaved (and one more flush).
      const waitSaved = async (_id: string, heads: string[]) => (asked.push(heads), { documentId: "d", savedAt: asked.length });
      const tracker = new SaveTracker({ documentId: "d", waitSaved, onState: () => {}, onConfirmed: (h) => confirmed.push(h) });
      const settle = () => new Promise((resolve) => setImmediate(resolve));
      for (let key = 1; key <= 100; key++) {
        tracker.headsChanged([`h${key}`]);
        await settle();
      }
      expect(asked).toEqual([["h1"]]);
      expect(tracker.state.kind).toBe("saving");
      vi.advanceTimersByTime(SAVE_CONFIRM_MIN_GAP_MS);
      await settle();
      expect(asked).toEqual([["h1"], ["h100"]]);
      expect(tracker.state).toEqual({ kind: "saved", at: 2 });
      expect(confirmed.at(-1)).toEqual(["h100"]);
      // Nothing newer: the gap's end asks for nothing more.
      vi.advanceTimersByTime(SAVE_CONFIRM_MIN_GAP_MS);
      await settle();
      expect(asked).toHaveLength(2);
      tracker.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
