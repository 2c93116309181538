import { describe, expect, it } from "vitest";
import { ChopinError } from "../../../shared/errors.js";
import type { SaveReceipt } from "../../../shared/api.js";
import { waitFor } from "../test/wait-for.js";
import { SaveTracker, type SaveState } from "./save-tracker.js";

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
    await waitFor(() => asks.length === 2);
    expect(tracker.state.kind).toBe("saving");
    expect(asks[1].heads).toEqual(["h3"]);
    asks[1].resolve({ documentId: "d", savedAt: 2 });
    await waitFor(() => tracker.state.kind === "saved");
    expect(tracker.state).toEqual({ kind: "saved", at: 2 });
    expect(states.map((s) => s.kind)).toEqual(["saving", "saved"]);
  });

  it("shows a failed confirmation and asks again", async () => {
    const { asks, waitSaved } = controllable();
    const tracker = new SaveTracker({ documentId: "d", waitSaved, onState: () => {}, retryMs: 5 });
    tracker.headsChanged(["h1"]);
    asks[0].reject(new ChopinError("timeout", "The core did not confirm the save in time."));
    await waitFor(() => tracker.state.kind === "failed");
    expect(tracker.state).toEqual({ kind: "failed", message: "The core did not confirm the save in time." });
    await waitFor(() => asks.length === 2);
    asks[1].resolve({ documentId: "d", savedAt: 9 });
    await waitFor(() => tracker.state.kind === "saved");
    tracker.stop();
  });
});
