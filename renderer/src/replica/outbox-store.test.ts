import { describe, expect, it } from "vitest";
import { ChopinError } from "../../../shared/errors.js";
import { OUTBOX_MAX_DOCUMENT_CHARS, OUTBOX_MAX_TOTAL_CHARS } from "../limits.js";
import { MemoryStorage } from "../test/memory-storage.js";
import { OUTBOX_KEY_PREFIX, OutboxStore, outboxKey, type OutboxEntry } from "./outbox-store.js";

const entry = (over: Partial<OutboxEntry> = {}): OutboxEntry => ({
  documentId: "doc1",
  windowId: "w1",
  title: "Plan",
  heads: ["a".repeat(64)],
  changes: ["AAEC"],
  writtenAt: 1,
  ...over,
});

/** An entry whose stored JSON is exactly `chars` characters long. */
function entryOfSize(chars: number, over: Partial<OutboxEntry> = {}): OutboxEntry {
  const bare = JSON.stringify(entry({ ...over, changes: [""] })).length;
  return entry({ ...over, changes: ["A".repeat(chars - bare)] });
}

const refusal = (fn: () => void): ChopinError => {
  try {
    fn();
  } catch (error) {
    return error as ChopinError;
  }
  throw new Error("expected a refusal");
};

describe("OutboxStore", () => {
  it("round-trips entries through storage, oldest write first, one per document and window", () => {
    const storage = new MemoryStorage();
    const store = new OutboxStore(storage);
    store.put(entry({ documentId: "d2", writtenAt: 5 }));
    store.put(entry({ documentId: "d1", writtenAt: 3 }));
    store.put(entry({ documentId: "d1", windowId: "w2", document: "Zm9v", changes: undefined, writtenAt: 4 }));
    // A later write by the same window replaces its entry.
    store.put(entry({ documentId: "d2", writtenAt: 6, changes: ["AQ==", "Ag=="] }));

    // A second store over the same storage (another window of the origin) reads the same.
    const listed = new OutboxStore(storage).list();
    expect(listed.map((s) => [s.entry.documentId, s.entry.windowId, s.entry.writtenAt])).toEqual([
      ["d1", "w1", 3],
      ["d1", "w2", 4],
      ["d2", "w1", 6],
    ]);
    expect(listed[1].entry.document).toBe("Zm9v");
    expect(listed[2].entry.changes).toEqual(["AQ==", "Ag=="]);
    expect(store.get("d2", "w1")?.entry.changes).toEqual(["AQ==", "Ag=="]);
    store.remove("d2", "w1");
    expect(store.get("d2", "w1")).toBeNull();
  });

  it(`keeps an entry of exactly OUTBOX_MAX_DOCUMENT_CHARS (${OUTBOX_MAX_DOCUMENT_CHARS}) and refuses one more, keeping the old`, () => {
    const store = new OutboxStore(new MemoryStorage());
    store.put(entry({ writtenAt: 1 }));
    const atBound = entryOfSize(OUTBOX_MAX_DOCUMENT_CHARS, { writtenAt: 2 });
    expect(JSON.stringify(atBound).length).toBe(OUTBOX_MAX_DOCUMENT_CHARS);
    store.put(atBound);
    expect(store.get("doc1", "w1")?.entry.writtenAt).toBe(2);

    const error = refusal(() => store.put(entryOfSize(OUTBOX_MAX_DOCUMENT_CHARS + 1, { writtenAt: 3 })));
    expect(error).toBeInstanceOf(ChopinError);
    expect(error.code).toBe("too-large");
    expect(error.message).toContain("“Plan”");
    expect(store.get("doc1", "w1")?.entry.writtenAt).toBe(2);
  });

  it(`keeps entries up to OUTBOX_MAX_TOTAL_CHARS (${OUTBOX_MAX_TOTAL_CHARS}) together and refuses one character more`, () => {
    const store = new OutboxStore(new MemoryStorage());
    // Four entries, each under the per-document bound.
    const quarter = Math.floor(OUTBOX_MAX_TOTAL_CHARS / 4);
    for (const id of ["d1", "d2", "d0"]) store.put(entryOfSize(quarter, { documentId: id }));
    const rest = OUTBOX_MAX_TOTAL_CHARS - 3 * quarter;
    expect(rest + 1).toBeLessThanOrEqual(OUTBOX_MAX_DOCUMENT_CHARS);
    store.put(entryOfSize(rest, { documentId: "d3", writtenAt: 2 }));
    expect(store.list()).toHaveLength(4);

    // Replacing its own entry counts only the new size: the same size again fits, one more does not.
    store.put(entryOfSize(rest, { documentId: "d3", writtenAt: 3 }));
    const error = refusal(() => store.put(entryOfSize(rest + 1, { documentId: "d3", writtenAt: 4 })));
    expect(error.code).toBe("storage-failure");
    expect(store.get("d3", "w1")?.entry.writtenAt).toBe(3);
    expect(refusal(() => store.put(entry({ documentId: "d4" }))).code).toBe("storage-failure");
    expect(store.get("d4", "w1")).toBeNull();
  });

  it("says so, with a typed error, when the browser's quota refuses the write, and keeps what was stored", () => {
    const store = new OutboxStore(new MemoryStorage(400));
    store.put(entry({ writtenAt: 1 }));
    const error = refusal(() => store.put(entryOfSize(1000, { writtenAt: 2 })));
    expect(error.code).toBe("storage-failure");
    expect(store.get("doc1", "w1")?.entry.writtenAt).toBe(1);
  });

  it("drops unreadable values under its prefix and leaves other keys alone", () => {
    const storage = new MemoryStorage();
    storage.setItem("chopin.host-secret", "s");
    storage.setItem(`${OUTBOX_KEY_PREFIX}x:y`, "{not json");
    storage.setItem(`${OUTBOX_KEY_PREFIX}a:b`, JSON.stringify({ ...entry(), changes: undefined }));
    // Two forms at once (changes and typed text) is no entry either.
    storage.setItem(`${OUTBOX_KEY_PREFIX}c:d`, JSON.stringify({ ...entry({ documentId: "c", windowId: "d" }), typed: { baseText: "", changes: [0] } }));
    // Stored under another document's key: never trusted.
    storage.setItem(outboxKey("other", "w1"), JSON.stringify(entry()));
    const store = new OutboxStore(storage);
    store.put(entry({ documentId: "good" }));
    expect(store.list().map((s) => s.entry.documentId)).toEqual(["good"]);
    expect(storage.length).toBe(2);
    expect(storage.getItem("chopin.host-secret")).toBe("s");
  });

  it("removes an entry only if nobody rewrote it since it was read", () => {
    const store = new OutboxStore(new MemoryStorage());
    store.put(entry({ writtenAt: 1 }));
    const [read] = store.list();
    store.put(entry({ writtenAt: 2 }));
    expect(store.removeIfUnchanged(read)).toBe(false);
    expect(store.get("doc1", "w1")?.entry.writtenAt).toBe(2);
    const [again] = store.list();
    expect(store.removeIfUnchanged(again)).toBe(true);
    expect(store.list()).toEqual([]);
  });
});
