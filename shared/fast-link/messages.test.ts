import { describe, expect, it } from "vitest";
import { FAST_PATH_MAX_BYTES, MAX_FAST_LINK_DOCUMENT_ID_CHARS } from "../limits.js";
import {
  FAST_LINK_MESSAGE_TYPE,
  offerFastLink,
  offersFastLink,
  parseFastLinkBatch,
  withoutFastLink,
} from "./messages.js";

const batch = (documentId: unknown, changes: unknown) => ({ type: FAST_LINK_MESSAGE_TYPE, senderId: "a", targetId: "b", documentId, changes });

describe("fast-link handshake field", () => {
  it("is offered, recognised and stripped again without touching the rest of the metadata", () => {
    const offered = offerFastLink({ storageId: "s" as never, isEphemeral: false });
    expect(offersFastLink(offered)).toBe(true);
    expect(withoutFastLink(offered)).toEqual({ storageId: "s", isEphemeral: false });
    expect(offersFastLink({ isEphemeral: true })).toBe(false);
    expect(offersFastLink(undefined)).toBe(false);
    expect(offersFastLink({ chopinFastLink: 2 } as never)).toBe(false);
  });
});

describe("parseFastLinkBatch", () => {
  it("accepts a batch of exactly FAST_PATH_MAX_BYTES and refuses one above", () => {
    expect(parseFastLinkBatch(batch("d", [new Uint8Array(FAST_PATH_MAX_BYTES - 1), new Uint8Array(1)]))?.changes).toHaveLength(2);
    expect(parseFastLinkBatch(batch("d", [new Uint8Array(FAST_PATH_MAX_BYTES), new Uint8Array(1)]))).toBeNull();
  });

  it("accepts a document id of MAX_FAST_LINK_DOCUMENT_ID_CHARS and refuses a longer or empty one", () => {
    const ok = "d".repeat(MAX_FAST_LINK_DOCUMENT_ID_CHARS);
    expect(parseFastLinkBatch(batch(ok, [Uint8Array.of(1)]))?.documentId).toBe(ok);
    expect(parseFastLinkBatch(batch(`${ok}d`, [Uint8Array.of(1)]))).toBeNull();
    expect(parseFastLinkBatch(batch("", [Uint8Array.of(1)]))).toBeNull();
  });

  it("gives null for anything malformed, never a throw", () => {
    for (const bad of [
      null,
      "text",
      42,
      batch(7, [Uint8Array.of(1)]),
      batch("d", []),
      batch("d", "bytes"),
      batch("d", [new Uint8Array(0)]),
      batch("d", [[1, 2]]),
      { ...batch("d", [Uint8Array.of(1)]), type: "sync" },
    ]) {
      expect(parseFastLinkBatch(bad)).toBeNull();
    }
  });
});
