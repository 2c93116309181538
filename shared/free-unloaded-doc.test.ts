import { next as A } from "@automerge/automerge";
import { afterEach, describe, expect, it, vi } from "vitest";
import { UNLOADED_DOC_FREE_DELAY_MS } from "./limits.js";
import { freeUnloadedDocLater } from "./free-unloaded-doc.js";

afterEach(() => vi.useRealTimers());

describe("freeUnloadedDocLater", () => {
  it("frees the document's Automerge memory only once UNLOADED_DOC_FREE_DELAY_MS has passed", () => {
    vi.useFakeTimers();
    const doc = A.from({ text: "kept until the delay" });
    freeUnloadedDocLater(doc);
    vi.advanceTimersByTime(UNLOADED_DOC_FREE_DELAY_MS - 1);
    expect(A.getHeads(doc)).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(() => A.getHeads(doc)).toThrow();
  });

  it("ignores a document already freed, and anything that is not a document", () => {
    vi.useFakeTimers();
    const doc = A.from({ n: 1 });
    A.free(doc);
    freeUnloadedDocLater(doc, 0);
    freeUnloadedDocLater({ not: "a document" }, 0);
    freeUnloadedDocLater(undefined, 0);
    expect(() => vi.advanceTimersByTime(1)).not.toThrow();
  });
});
