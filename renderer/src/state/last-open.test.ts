import { describe, expect, it } from "vitest";
import { createMemoryBridge } from "../test/memory-bridge.js";
import { MemoryStorage } from "../test/memory-storage.js";
import { createDocumentsStore } from "./documents-store.js";
import { LAST_OPEN_KEY, rememberLastOpen, reopenLast } from "./last-open.js";

async function setup(storage: MemoryStorage) {
  const bridge = createMemoryBridge();
  const documents = createDocumentsStore(bridge.api, { previewWaitMs: 0 });
  const stop = rememberLastOpen(documents, storage);
  return { bridge, documents, stop };
}

describe("reopening the last document", () => {
  it("remembers the document opened and opens it again in the next window", async () => {
    const storage = new MemoryStorage();
    const first = await setup(storage);
    const a = await first.bridge.api.createDocument({ title: "A" });
    const b = await first.bridge.api.createDocument({ title: "B" });
    await first.documents.getState().refresh();
    await first.documents.getState().open(a.id);
    await first.documents.getState().open(b.id);
    expect(storage.getItem(LAST_OPEN_KEY)).toBe(b.id);
    first.stop();

    // A reload: a new store over the same core and the same page storage.
    const documents = createDocumentsStore(first.bridge.api, { previewWaitMs: 0 });
    await documents.getState().refresh();
    await reopenLast(documents, storage);
    expect(documents.getState().selected?.id).toBe(b.id);
  });

  it("opens nothing when the remembered document is not listed, or something is already open", async () => {
    const storage = new MemoryStorage();
    const { bridge, documents } = await setup(storage);
    const a = await bridge.api.createDocument({ title: "A" });
    storage.setItem(LAST_OPEN_KEY, "2aX9notListedHere");
    await documents.getState().refresh();
    await reopenLast(documents, storage);
    expect(documents.getState().selected).toBeNull();

    const c = await bridge.api.createDocument({ title: "C" });
    storage.setItem(LAST_OPEN_KEY, c.id);
    await documents.getState().refresh();
    await documents.getState().open(a.id);
    await reopenLast(documents, storage);
    expect(documents.getState().selected?.id).toBe(a.id);
  });

  it("does nothing without page storage", async () => {
    const { bridge } = await setup(new MemoryStorage());
    const documents = createDocumentsStore(bridge.api, { previewWaitMs: 0 });
    expect(rememberLastOpen(documents, null)).toBeTypeOf("function");
    await reopenLast(documents, null);
    expect(documents.getState().selected).toBeNull();
  });
});
