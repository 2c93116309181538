/**
 * RelayReceived holds the heads the relay sent per document for the sync indicator; an entry must not outlive its
 * document (resource audit: a deleted plan's entry stayed for the whole session). Driven through the real delete path
 * (DocumentService.deleteDocument over a real Repo), which is how a plan leaves the core for good.
 */
import { afterEach, describe, expect, it } from "vitest";
import { makeFixture, TEST_RELAY_URL, type Fixture } from "../documents/test-fixture.js";
import { RelayReceived } from "./relay-received.js";

let fx: Fixture | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

describe("RelayReceived and deleted documents", () => {
  it("drops a plan's entry when the plan is deleted, and keeps the others", async () => {
    fx = await makeFixture({ relayUrl: TEST_RELAY_URL });
    const received = new RelayReceived(fx.repo);
    const gone = await fx.service.createDocument({ title: "Gone", shared: true });
    const kept = await fx.service.createDocument({ title: "Kept", shared: true });
    received.note(gone.id, ["a1", "a2"]);
    received.note(kept.id, ["b1"]);

    // Archiving is not leaving: the plan is still here and the relay still holds what it sent.
    await fx.service.archiveDocument(gone.id);
    expect(received.heads(gone.id)).toEqual(["a1", "a2"]);

    await fx.service.deleteDocument(gone.id);
    expect(received.heads(gone.id)).toEqual([]);
    expect(received.size).toBe(1);
    expect(received.heads(kept.id)).toEqual(["b1"]);
  });

  it("stops following the Repo once disposed (the relay link closed), holding nothing", async () => {
    fx = await makeFixture();
    const listeners = () => fx!.repo.listenerCount("delete-document");
    const before = listeners();
    const received = new RelayReceived(fx.repo);
    expect(listeners()).toBe(before + 1);
    const plan = await fx.service.createDocument({ title: "Plan" });
    received.note(plan.id, ["h"]);
    received.dispose();
    expect(received.size).toBe(0);
    expect(listeners()).toBe(before);
  });
});
