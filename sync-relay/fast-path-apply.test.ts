/**
 * RelayFastPath on its own (an in-memory Repo, recorded deps): a batch goes on to the other sessions as it arrives; the
 * batches of one apply interval apply as one update per document, and go then to sessions that began syncing the
 * document in between; a batch whose bytes pass the arrival check but do
 * not apply closes only its sender; changes an apply releases from the copy's held changes go out then; the relay's handles carry no "change" listener, so DocHandle computes no diff for
 * them (the automerge-repo patch).
 */
import { next as A } from "@automerge/automerge";
import { Repo, type DocHandle } from "@automerge/automerge-repo";
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RELAY_APPLY_BUSY_SHARE, RELAY_APPLY_INTERVAL_MS, RELAY_APPLY_MAX_WAIT_MS } from "./limits.js";
import { FAST_CHANGES_TYPE, type FastChangesFrame } from "../shared/sync-wire.js";
import { RelayFastPath, relayApplyDelay } from "./fast-path.js";
import { PeerInterest } from "./peer-interest.js";

interface Notes {
  items: string[];
}

const SESSIONS = ["alice#s1", "bob#s2", "carol#s3"] as const;

/** `now`: the clock that times applies (RelayFastPathDeps.now). */
function setup(interested: readonly string[] = SESSIONS, now?: () => number) {
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
    isFastSession: (sessionId) => (SESSIONS as readonly string[]).includes(sessionId),
    send: (to, documentId, changes) => (sent.push({ to, documentId, changes }), true),
    syncNow: () => undefined,
    notePeerHas: (sessionId, _documentId, hashes) => void noted.push({ sessionId, hashes }),
    refuse: (sessionId, code) => void refused.push({ sessionId, code }),
    now,
  });
  const handle = repo.create<Notes>({ items: [] });
  for (const s of interested) interest.record(s, handle.documentId);
  fastPath.watch(handle.documentId);
  return { repo, fastPath, handle, interest, sent, refused, noted };
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

  it("sends a batch on apply to a session that began syncing the document after it arrived, and to no one else", async () => {
    const { fastPath, handle, interest, sent, noted } = setup(["alice#s1", "bob#s2"]);
    const fromAlice = changeTo(handle, "a");
    fastPath.receive("alice#s1", frame(handle, "alice#s1", [fromAlice]));
    expect(sent.map((s) => s.to)).toEqual(["bob#s2"]);
    // Carol opens the document now: the copy she syncs from does not hold Alice's change yet.
    interest.record("carol#s3", handle.documentId);
    await fastPath.flush();
    expect(sent.map((s) => s.to)).toEqual(["bob#s2", "carol#s3"]);
    expect(sent[1].changes).toEqual([fromAlice]);
    expect(noted.filter((n) => n.sessionId === "carol#s3").map((n) => n.hashes)).toEqual([[A.decodeChange(fromAlice).hash]]);
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

  it("forwards changes an apply releases from the copy's held changes, but never the applied batch again", async () => {
    const { fastPath, handle, sent } = setup();
    const base = A.clone(handle.doc());
    const first = A.change(base, (d) => void d.items.push("first"));
    // Read before the next change: a document's later versions share its backend.
    const firstChange = A.getLastLocalChange(first)!;
    const secondChange = A.getLastLocalChange(A.change(first, (d) => void d.items.push("second")))!;
    // The second change reached the copy some other way (a client's sync message) before the one it depends on.
    handle.update((doc) => A.applyChanges(doc, [secondChange])[0]);
    expect(A.getMissingDeps(handle.doc(), [])).toEqual([A.decodeChange(firstChange).hash]);
    fastPath.receive("alice#s1", frame(handle, "alice#s1", [firstChange]));
    expect(sent.map((s) => s.to).sort()).toEqual(["bob#s2", "carol#s3"]);
    await fastPath.flush();
    expect(handle.doc().items).toEqual(["first", "second"]);
    // Only the released change goes out on apply (to everyone: the relay cannot know who had it).
    const onApply = sent.slice(2);
    expect(onApply.map((s) => s.to).sort()).toEqual([...SESSIONS].sort());
    for (const s of onApply) expect(s.changes).toEqual([secondChange]);
  });

  it("applies a document's waiting batches at once on applyNow and drops their timer", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { fastPath, handle } = setup();
    fastPath.applyNow(handle.documentId);
    expect(fastPath.stats.applied).toBe(0);
    fastPath.receive("alice#s1", frame(handle, "alice#s1", [changeTo(handle, "a")]));
    const withApplyTimer = vi.getTimerCount();
    fastPath.applyNow(handle.documentId);
    expect(handle.doc().items).toEqual(["a"]);
    expect(vi.getTimerCount()).toBe(withApplyTimer - 1);
    await vi.advanceTimersByTimeAsync(RELAY_APPLY_INTERVAL_MS);
    expect(fastPath.stats.applied).toBe(1);
  });

  it("waits longer after a slow apply: its cost over RELAY_APPLY_BUSY_SHARE, between the interval and the cap", () => {
    expect(relayApplyDelay(0)).toBe(RELAY_APPLY_INTERVAL_MS);
    expect(relayApplyDelay(RELAY_APPLY_INTERVAL_MS * RELAY_APPLY_BUSY_SHARE)).toBe(RELAY_APPLY_INTERVAL_MS);
    expect(relayApplyDelay(RELAY_APPLY_INTERVAL_MS * RELAY_APPLY_BUSY_SHARE + 1)).toBeGreaterThan(RELAY_APPLY_INTERVAL_MS);
    expect(relayApplyDelay(RELAY_APPLY_MAX_WAIT_MS * RELAY_APPLY_BUSY_SHARE)).toBe(RELAY_APPLY_MAX_WAIT_MS);
    expect(relayApplyDelay(RELAY_APPLY_MAX_WAIT_MS * RELAY_APPLY_BUSY_SHARE + 1)).toBe(RELAY_APPLY_MAX_WAIT_MS);
    expect(relayApplyDelay(0, 0)).toBe(0);
  });

  it("after a slow apply, applies the document's next batches relayApplyDelay later, applyNow included", async () => {
    const costMs = 200;
    const delay = relayApplyDelay(costMs);
    expect(delay).toBeGreaterThan(RELAY_APPLY_INTERVAL_MS);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    // The injected clock reports every apply as taking costMs (each read is costMs after the one before).
    let t = 0;
    const { fastPath, handle } = setup(SESSIONS, () => (t += costMs));
    fastPath.receive("alice#s1", frame(handle, "alice#s1", [changeTo(handle, "a")]));
    await vi.advanceTimersByTimeAsync(RELAY_APPLY_INTERVAL_MS);
    expect(handle.doc().items).toEqual(["a"]);

    fastPath.receive("alice#s1", frame(handle, "alice#s1", [changeTo(handle, "b")]));
    fastPath.applyNow(handle.documentId);
    expect(handle.doc().items).toEqual(["a"]);
    await vi.advanceTimersByTimeAsync(delay - 1);
    expect(handle.doc().items).toEqual(["a"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(handle.doc().items).toEqual(["a", "b"]);

    // Once that long has passed, a sync message applies at once again.
    await vi.advanceTimersByTimeAsync(delay);
    fastPath.receive("alice#s1", frame(handle, "alice#s1", [changeTo(handle, "c")]));
    fastPath.applyNow(handle.documentId);
    expect(handle.doc().items).toEqual(["a", "b", "c"]);
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
