/**
 * A burst of re-reads against a slow core (the audit: one list read and one document read per keystroke filled the
 * core's call queue): each re-read is one in flight and one queued however often it is asked for, and what stays on
 * screen is what the core held last.
 */
import { describe, expect, it } from "vitest";
import { createMemoryBridge } from "../test/memory-bridge.js";
import { createDocumentsStore } from "./documents-store.js";
import { waitFor } from "../../../shared/wait-for.js";

const BURST = 100;

describe("documents store re-reads", () => {
  it(`costs the core at most two list reads and two document reads for ${BURST} requests, and ends on the latest`, async () => {
    const bridge = createMemoryBridge();
    const doc = await bridge.api.createDocument({ title: "Plan" });
    const store = createDocumentsStore(bridge.api, { previewWaitMs: 0 });
    await store.getState().refresh();
    await store.getState().open(doc.id);

    // The core answers only when the test lets it: every request of the burst is made while the first is in flight.
    const held: (() => void)[] = [];
    const asks = { listDocuments: 0, getDocument: 0 };
    const slow = <A extends unknown[], R>(method: keyof typeof asks, call: (...args: A) => Promise<R>) =>
      (...args: A) => {
        asks[method]++;
        return new Promise<void>((resolve) => held.push(resolve)).then(() => call(...args));
      };
    bridge.api.listDocuments = slow("listDocuments", bridge.api.listDocuments);
    bridge.api.getDocument = slow("getDocument", bridge.api.getDocument);
    const count = (method: keyof typeof asks) => asks[method];

    const asked: Promise<void>[] = [];
    for (let i = 1; i <= BURST; i++) {
      // A keystroke the core applied: a new updated time (and, here, a title, to tell answers apart).
      Object.assign(bridge.docs.get(doc.id)!, { title: `Plan ${i}`, updatedAt: 1_800_000_000_000 + i });
      asked.push(store.getState().refresh(), store.getState().reloadSelected());
    }
    expect(count("listDocuments")).toBe(1);
    expect(count("getDocument")).toBe(1);

    // Let the core answer whatever it is asked, until every request made above has its answer.
    let done = false;
    void Promise.all(asked).then(() => (done = true));
    await waitFor(() => {
      held.splice(0).forEach((answer) => answer());
      return done;
    }, "the condition in the test");
    expect(count("listDocuments")).toBe(2);
    expect(count("getDocument")).toBe(2);
    expect(store.getState().documents[0]).toMatchObject({ title: `Plan ${BURST}`, updatedAt: 1_800_000_000_000 + BURST });
    expect(store.getState().selected).toMatchObject({ title: `Plan ${BURST}`, updatedAt: 1_800_000_000_000 + BURST });
  });
});
