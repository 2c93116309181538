import { describe, expect, it } from "vitest";
import { holdQuitUntil } from "./quit.js";
import { waitFor } from "../../shared/wait-for.js";

function fakeApp() {
  const listeners: ((e: { preventDefault(): void }) => void)[] = [];
  const app = {
    quits: 0,
    on: (_event: "will-quit", fn: (e: { preventDefault(): void }) => void) => listeners.push(fn),
    quit: () => {
      app.quits++;
    },
    /** Returns whether the quit was held. */
    willQuit(): boolean {
      let held = false;
      for (const fn of listeners) fn({ preventDefault: () => (held = true) });
      return held;
    },
  };
  return app;
}

describe("holdQuitUntil", () => {
  it("holds the quit until the core has closed, once, then lets it through", async () => {
    const app = fakeApp();
    let release!: () => void;
    let closes = 0;
    holdQuitUntil(app, () => {
      closes++;
      return new Promise<void>((r) => (release = r));
    });
    expect(app.willQuit()).toBe(true);
    expect(app.willQuit()).toBe(true); // a second request while closing is absorbed
    expect(closes).toBe(1);
    expect(app.quits).toBe(0);
    release();
    await waitFor(() => app.quits === 1, "the replayed quit");
    expect(app.willQuit()).toBe(false);
    expect(closes).toBe(1);
  });

  it("still quits when closing fails, and reports the failure", async () => {
    const app = fakeApp();
    const reported: unknown[] = [];
    holdQuitUntil(app, async () => {
      throw new Error("flush failed");
    }, (e) => reported.push(e));
    expect(app.willQuit()).toBe(true);
    await waitFor(() => app.quits === 1, "the quit");
    expect((reported[0] as Error).message).toBe("flush failed");
  });
});
