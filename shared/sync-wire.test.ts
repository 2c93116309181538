import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_PEER_ID_CHARS, MAX_WIRE_DOCUMENT_ID_CHARS, MAX_WIRE_FEATURE_NAME_CHARS, MAX_WIRE_FRAME_TYPE_CHARS } from "./limits.js";
import { FAST_CHANGES_TYPE, FEATURE_FAST_CHANGES, decodeFrame, encodeFrame, hasFeature, isValidPeerId, type WireFrame } from "./sync-wire.js";

describe("relay wire frames", () => {
  it("round-trips a repo message with its bytes", () => {
    const frame: WireFrame = { type: "sync", senderId: "alice:laptop", targetId: "relay", documentId: "d", data: new Uint8Array([1, 2, 3]) };
    const decoded = decodeFrame(encodeFrame(frame));
    expect(decoded.ok).toBe(true);
    if (decoded.ok) {
      expect(decoded.frame).toMatchObject({ type: "sync", senderId: "alice:laptop", targetId: "relay" });
      expect(new Uint8Array((decoded.frame as { data: Uint8Array }).data)).toEqual(new Uint8Array([1, 2, 3]));
    }
  });

  it("fills join defaults and refuses malformed joins", () => {
    const ok = decodeFrame(encodeFrame({ type: "join", senderId: "a:b" } as unknown as WireFrame));
    expect(ok).toEqual({ ok: true, frame: { type: "join", senderId: "a:b", peerMetadata: {}, supportedProtocolVersions: ["1"] } });
    const bad = decodeFrame(encodeFrame({ type: "join", senderId: "a:b", supportedProtocolVersions: [1] } as unknown as WireFrame));
    expect(bad.ok).toBe(false);
  });

  it("accepts a peer id of MAX_PEER_ID_CHARS and refuses one above", () => {
    expect(isValidPeerId("p".repeat(MAX_PEER_ID_CHARS))).toBe(true);
    expect(isValidPeerId("p".repeat(MAX_PEER_ID_CHARS + 1))).toBe(false);
    const long = decodeFrame(encodeFrame({ type: "join", senderId: "p".repeat(MAX_PEER_ID_CHARS + 1) } as unknown as WireFrame));
    expect(long).toEqual({ ok: false, reason: "frame has no valid senderId" });
  });

  it("refuses frames without a target, with non-byte data or that are not maps", () => {
    expect(decodeFrame(encodeFrame({ type: "sync", senderId: "a" } as unknown as WireFrame)).ok).toBe(false);
    expect(decodeFrame(encodeFrame({ type: "sync", senderId: "a", targetId: "b", data: "x" } as unknown as WireFrame)).ok).toBe(false);
    expect(decodeFrame(encodeFrame([1, 2] as unknown as WireFrame)).ok).toBe(false);
    expect(decodeFrame(new Uint8Array([0xff, 0xff])).ok).toBe(false);
  });

  it("keeps a join's feature list and refuses a malformed one", () => {
    const ok = decodeFrame(encodeFrame({ type: "join", senderId: "a:b", features: [FEATURE_FAST_CHANGES] } as unknown as WireFrame));
    expect(ok.ok && hasFeature(ok.frame as { features?: unknown }, FEATURE_FAST_CHANGES)).toBe(true);
    expect(decodeFrame(encodeFrame({ type: "join", senderId: "a:b", features: "fast-changes" } as unknown as WireFrame)).ok).toBe(false);
    expect(decodeFrame(encodeFrame({ type: "join", senderId: "a:b", features: new Array(17).fill("x") } as unknown as WireFrame)).ok).toBe(false);
  });

  it("accepts a feature name of MAX_WIRE_FEATURE_NAME_CHARS and refuses one character more (join and peer)", () => {
    const named = (type: "join" | "peer", name: string) =>
      decodeFrame(encodeFrame({ type, senderId: "a:b", targetId: "c:d", features: [name] } as unknown as WireFrame));
    const atBound = "f".repeat(MAX_WIRE_FEATURE_NAME_CHARS);
    for (const type of ["join", "peer"] as const) {
      const ok = named(type, atBound);
      expect(ok.ok && hasFeature(ok.frame as { features?: unknown }, atBound)).toBe(true);
      expect(named(type, `${atBound}f`).ok).toBe(false);
    }
  });

  it("round-trips a changes frame and refuses one without a list of non-empty changes", () => {
    const frame = { type: FAST_CHANGES_TYPE, senderId: "a:b", targetId: "relay", documentId: "d", changes: [new Uint8Array([1, 2])] };
    const decoded = decodeFrame(encodeFrame(frame as WireFrame));
    expect(decoded.ok).toBe(true);
    if (decoded.ok) expect((decoded.frame as typeof frame).changes.map((c) => [...c])).toEqual([[1, 2]]);
    for (const changes of [[], [new Uint8Array(0)], ["x"], new Uint8Array([1]), undefined]) {
      expect(decodeFrame(encodeFrame({ ...frame, changes } as unknown as WireFrame)).ok).toBe(false);
    }
    expect(decodeFrame(encodeFrame({ ...frame, documentId: undefined } as unknown as WireFrame)).ok).toBe(false);
  });

  it("accepts a type of MAX_WIRE_FRAME_TYPE_CHARS and a documentId of MAX_WIRE_DOCUMENT_ID_CHARS, refuses one more", () => {
    const frame = (type: string, documentId: string) =>
      encodeFrame({ type, senderId: "a:b", targetId: "relay", documentId, data: new Uint8Array([1]) } as unknown as WireFrame);
    const type = "t".repeat(MAX_WIRE_FRAME_TYPE_CHARS);
    const id = "d".repeat(MAX_WIRE_DOCUMENT_ID_CHARS);
    expect(decodeFrame(frame(type, id)).ok).toBe(true);
    expect(decodeFrame(frame(type + "t", id))).toEqual({ ok: false, reason: "frame has no type" });
    expect(decodeFrame(frame(type, id + "d"))).toEqual({ ok: false, reason: "frame has an invalid documentId" });
  });

  it("never throws on arbitrary bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => {
        const result = decodeFrame(bytes);
        expect(typeof result.ok).toBe("boolean");
      }),
      { numRuns: 2000 },
    );
  });
});
