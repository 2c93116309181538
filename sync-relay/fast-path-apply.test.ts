/**
 * RelayFastPath on its own (an in-memory Repo, recorded deps): a batch goes on to the other sessions as it arrives; the
 * batches of one apply interval apply as one update per document; a batch whose bytes pass the arrival check but do
 * not apply closes only its sender; the relay's handles carry no "change" listener, so DocHandle computes no diff for
 * them (the automerge-repo patch).
 */
import * as A from "@automerge/automerge";
import { Repo, type DocHandle } from "@automerge/automerge-repo";
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RELAY_APPLY_INTERVAL_MS } from "../shared/limits.js";
import { FAST_CHANGES_TYPE, type FastChangesFrame } from "../shared/sync-wire.js";
import { RelayFastPath } from "./fast-path.js";
import { PeerInterest } from "./peer-interest.js";

interface Notes {
  items: string[];
}

const SESSIONS = ["alice#s1", "bob#s2", "carol#s3"] as const;

function setup() {
  const repo = new Repo({ network: [] });
  const interest = new PeerInterest();
  const sent: { to: string; documentId: string; changes: Uint8Array[] }[] = [];
  const refused: { sessionId: string; code: number }[] = [];
  const noted: { sessionId: string; hashes: readonly string[] }[] = [];
  const fastPath = new RelayFastPath({
    repo,
    interest,
    access: () => true,
    userOf: (sessionId) => sessionId.split("#")[0],
    fastSessions: () => SESSIONS,
    send: (to, documentId, changes) => (sent.push({ to, documentId, changes }), true),
    syncNow: () => undefined,
    notePeerHas: (sessionId, _documentId, hashes) => void noted.push({ sessionId, hashes }),
    refuse: (sessionId, code) => void refused.push({ sessionId, code }),
  });
  const handle = repo.create<Notes>({ items: [] });
  for (const s of SESSIONS) interest.record(s, handle.documentId);
  fastPath.watch(handle.documentId);
  return { repo, fastPath, handle, sent, refused, noted };
}

/** A change to the relay's copy made elsewhere (as a client would have made it). */
function changeTo(handle: DocHandle<Notes>, item: string): Uint8Array {
  return A.getLastLocalChange(A.change(A.clone(handle.doc()), (d) => void d.items.push(item)))!;
}

function frame(handle: DocHandle<Notes>, sessionId: string, changes: Uint8Array[]): FastChangesFrame {
  return { type: FAST_CHANGES_TYPE, senderId: sessionId, targetId: "relay", documentId: handle.documentId, changes };
}

describe("RelayFastPath: forward on arrival, apply per document on RELAY_APPLY_INTERVAL_MS", () => {
  afterEach(() => void vi.useRealTimers());

  it("forwards each batch on arrival to everyone else, then applies a window's batches as one update", async () => {
    const { fastPath, handle, sent, noted } = setup();
    const fromAlice = changeTo(handle, "a");
    const fromBob = changeTo(handle, "b");
    fastPath.receive("alice#s1", frame(handle, "alice#s1", [fromAlice]));
    fastPath.receive("bob#s2", frame(handle, "bob#s2", [fromBob]));
    expect(sent.map((s) => `${s.to}<-${s.changes[0] === fromAlice ? "a" : "b"}`).sort()).toEqual([
      "alice#s1<-b",
      "bob#s2<-a",
      "carol#s3<-a",
      "carol#s3<-b",
    ]);
    expect(handle.doc().items).toEqual([]);
    await fastPath.flush();
    expect([...handle.doc().items].sort()).toEqual(["a", "b"]);
    expect(fastPath.stats.applied).toBe(1);
    // Applying sends nothing again; each sender is noted as having its own change.
    expect(sent).toHaveLength(4);
    expect(noted.filter((n) => n.sessionId === "alice#s1").map((n) => n.hashes)).toContainEqual([A.decodeChange(fromAlice).hash]);
    expect(handle.listenerCount("change")).toBe(0);
  });

  it("applies no sooner than RELAY_APPLY_INTERVAL_MS after the first batch, and then at once", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { fastPath, handle } = setup();
    fastPath.receive("alice#s1", frame(handle, "alice#s1", [changeTo(handle, "a")]));
    await vi.advanceTimersByTimeAsync(RELAY_APPLY_INTERVAL_MS - 1);
    expect(handle.doc().items).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(handle.doc().items).toEqual(["a"]);
  });

  it("refuses bytes that are not a change on arrival, and a checksummed change that does not apply when applied", async () => {
    const { fastPath, handle, refused, sent } = setup();
    expect(fastPath.receive("alice#s1", frame(handle, "alice#s1", [Uint8Array.of(1, 2, 3)]))).toMatchObject({ ok: false });
    expect(sent).toEqual([]);

    const good = changeTo(handle, "ok");
    const broken = Uint8Array.from(changeTo(handle, "bad"));
    broken[broken.length - 3] ^= 0xff;
    // A valid checksum over the damaged body, so only applying it can tell.
    broken.set(createHash("sha256").update(broken.subarray(8)).digest().subarray(0, 4), 4);
    expect(() => A.applyChanges(A.clone(handle.doc()), [broken])).toThrow();
    expect(fastPath.receive("bob#s2", frame(handle, "bob#s2", [broken]))).toEqual({ ok: true });
    fastPath.receive("carol#s3", frame(handle, "carol#s3", [good]));
    await fastPath.flush();
    expect(refused).toEqual([{ sessionId: "bob#s2", code: 1007 }]);
    expect(handle.doc().items).toEqual(["ok"]);
  });
});
