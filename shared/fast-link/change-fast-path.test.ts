/**
 * ChangeFastPath on its own, over a real Repo with no network: what it sends (one batch per burst, only for documents
 * the link was told it carries), what it applies (never echoed, noted as delivered), and when it asks the sync protocol
 * for a round instead. The transport ends are in fast-link-adapter.test.ts (MessagePort) and
 * main/sync/window-link.test.ts (WebSocket, with a relay).
 */
import { next as A } from "@automerge/automerge";
import { Repo, type DocHandle, type DocumentId, type PeerId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FAST_PATH_APPLY_BUSY_SHARE, FAST_PATH_APPLY_MAX_WAIT_MS, FAST_PATH_APPLY_MIN_INTERVAL_MS, FAST_PATH_MAX_BYTES } from "../limits.js";
import { checkedChangeHashes } from "./change-hash.js";
import { applySpacing, ChangeFastPath } from "./change-fast-path.js";

type Notes = { text: string };

interface Harness {
  repo: Repo;
  fast: ChangeFastPath;
  sent: Array<{ documentId: string; changes: Uint8Array[] }>;
  noted: string[][];
  syncRounds: string[];
}

const repos: Repo[] = [];
afterEach(async () => {
  for (const repo of repos.splice(0)) await repo.shutdown().catch(() => undefined);
});

/** `now`: the clock that times applies (ChangeFastPathOptions.now); `mayCarry`: the share decision. */
function harness(now?: () => number, mayCarry?: (documentId: string) => boolean): Harness {
  const repo = new Repo({ network: [] });
  repos.push(repo);
  const h: Harness = { repo, sent: [], noted: [], syncRounds: [], fast: null as unknown as ChangeFastPath };
  h.fast = new ChangeFastPath({
    send: (documentId, changes) => {
      h.sent.push({ documentId, changes });
      return true;
    },
    syncNow: (_repo, documentId) => void h.syncRounds.push(documentId),
    notePeerHas: (_repo, _documentId, hashes) => void h.noted.push([...hashes]),
    hashes: checkedChangeHashes,
    now,
    mayCarry,
  });
  h.fast.attach(repo);
  return h;
}

const settle = () => new Promise<void>((resolve) => queueMicrotask(resolve));

/** Changes made on a copy of `handle`'s document, for feeding receive(). */
function changesOnCopy(handle: DocHandle<Notes>, edit: (d: Notes) => void): { changes: Uint8Array[]; after: A.Doc<Notes> } {
  const before = A.clone(handle.doc());
  const after = A.change(A.clone(before), edit);
  return { changes: A.getChanges(before, after), after };
}

/** A document the link carries, and `next(char)`: the changes appending `char` on a peer's copy of it. */
function carriedDocument(h: Harness): { handle: DocHandle<Notes>; next(char: string): Uint8Array[] } {
  const handle = h.repo.create<Notes>({ text: "" });
  h.fast.noteOutbound("sync", handle.documentId);
  let copy = A.clone(handle.doc());
  const next = (char: string): Uint8Array[] => {
    const before = copy;
    copy = A.change(A.clone(copy), (d) => A.splice(d, ["text"], d.text.length, 0, char));
    return A.getChanges(before, copy);
  };
  return { handle, next };
}

describe("ChangeFastPath", () => {
  it("asks the share decision for every batch both ways: a document no longer shared stops at once, until a sync message admits it again", async () => {
    const shared = new Set<string>();
    const h = harness(undefined, (documentId) => shared.has(documentId));
    const refused = h.repo.create<Notes>({ text: "" });
    // Never shared: a sync message does not admit it.
    h.fast.noteOutbound("sync", refused.documentId);
    refused.change((d) => A.splice(d, ["text"], 0, 0, "private"));
    await settle();
    expect(h.sent).toEqual([]);

    const { handle, next } = (() => {
      const made = h.repo.create<Notes>({ text: "" });
      shared.add(made.documentId);
      h.fast.noteOutbound("sync", made.documentId);
      let copy = A.clone(made.doc());
      return {
        handle: made,
        next: (char: string) => {
          const before = copy;
          copy = A.change(A.clone(copy), (d) => A.splice(d, ["text"], d.text.length, 0, char));
          return A.getChanges(before, copy);
        },
      };
    })();
    handle.change((d) => A.splice(d, ["text"], 0, 0, "a"));
    await settle();
    expect(h.sent).toHaveLength(1);

    // A teammate removed it from the team's list: nothing more goes out, and nothing the other end sends is applied.
    shared.delete(handle.documentId);
    handle.change((d) => A.splice(d, ["text"], 1, 0, "b"));
    await settle();
    h.fast.receive(handle.documentId, next("x"));
    await settle();
    expect(h.sent).toHaveLength(1);
    expect(handle.doc().text).toBe("ab");
    expect(h.fast.carries(handle.documentId)).toBe(false);

    // Shared again, it rides only once a sync message for it crosses the link again.
    shared.add(handle.documentId);
    handle.change((d) => A.splice(d, ["text"], 2, 0, "c"));
    await settle();
    expect(h.sent).toHaveLength(1);
    h.fast.noteOutbound("sync", handle.documentId);
    handle.change((d) => A.splice(d, ["text"], 3, 0, "d"));
    await settle();
    expect(h.sent).toHaveLength(2);
  });

  it("sends a burst's first change at once and the rest as one batch, only for admitted documents, and notes them delivered", async () => {
    const h = harness();
    const handle = h.repo.create<Notes>({ text: "" });
    handle.change((d) => A.splice(d, ["text"], 0, 0, "not yet"));
    h.fast.noteOutbound("ephemeral", handle.documentId);
    h.fast.noteOutbound("sync", undefined);
    handle.change((d) => A.splice(d, ["text"], 0, 0, "still not"));
    await settle();
    expect(h.sent).toEqual([]);

    h.fast.noteOutbound("sync", handle.documentId);
    const base = A.clone(handle.doc());
    handle.change((d) => A.splice(d, ["text"], 0, 0, "a"));
    // Sent from inside the change event, before anything else queued for this turn runs.
    expect(h.sent.map((s) => s.changes.length)).toEqual([1]);
    handle.change((d) => A.splice(d, ["text"], 1, 0, "b"));
    handle.change((d) => A.splice(d, ["text"], 2, 0, "c"));
    expect(h.sent).toHaveLength(1);
    await settle();
    expect(h.sent.map((s) => s.changes.length)).toEqual([1, 2]);
    expect(h.noted).toEqual(h.sent.map((s) => s.changes.map((c) => A.decodeChange(c).hash)));
    expect(h.fast.stats.sentChanges).toBe(3);
    // A later turn starts a new burst.
    await settle();
    handle.change((d) => A.splice(d, ["text"], 3, 0, "d"));
    expect(h.sent.map((s) => s.changes.length)).toEqual([1, 2, 1]);
    expect(A.applyChanges(base, h.sent.flatMap((s) => s.changes))[0].text).toBe(handle.doc().text);
  });

  // The patched DocHandle computes a change's patches only for "change" listeners (shared/sync-pacing.test.ts).
  it("watches heads, not patches: a carried writer's handle gets no change listener, so the link costs it no diff", async () => {
    const h = harness();
    const { handle } = carriedDocument(h);
    const base = A.clone(handle.doc());
    handle.change((d) => A.splice(d, ["text"], 0, 0, "a"));
    handle.change((d) => A.splice(d, ["text"], 1, 0, "b"));
    await settle();
    expect(handle.listenerCount("change")).toBe(0);
    expect(handle.listenerCount("heads-changed")).toBeGreaterThan(0);
    expect(h.sent.map((s) => s.changes.length)).toEqual([1, 1]);
    expect(A.applyChanges(base, h.sent.flatMap((s) => s.changes))[0].text).toBe("ab");
  });

  it("applies a received batch without sending it back, and notes the other end has it", async () => {
    const h = harness();
    const handle = h.repo.create<Notes>({ text: "x" });
    h.fast.noteInbound("request", handle.documentId);
    const { changes } = changesOnCopy(handle, (d) => A.splice(d, ["text"], 1, 0, "y"));
    h.fast.receive(handle.documentId, changes);
    await settle();
    expect(handle.doc().text).toBe("xy");
    const received = changes.map((c) => A.decodeChange(c).hash);
    expect(h.noted).toEqual([received]);
    // A local edit after the apply goes out the same way an echo would: once it has, an echo would be before it.
    handle.change((d) => A.splice(d, ["text"], 2, 0, "z"));
    const marker = A.getHeads(handle.doc());
    await vi.waitFor(() => expect(h.sent).not.toEqual([]));
    expect(h.sent.flatMap((s) => s.changes.map((c) => A.decodeChange(c).hash))).toEqual(marker);
    expect(h.noted).toEqual([received, marker]);
    expect(h.fast.stats.appliedFrames).toBe(1);
  });

  it("ignores batches for documents the link does not carry, and forgets every document on reset()", async () => {
    const h = harness();
    const handle = h.repo.create<Notes>({ text: "x" });
    const { changes } = changesOnCopy(handle, (d) => A.splice(d, ["text"], 1, 0, "y"));
    h.fast.receive(handle.documentId, changes);
    h.fast.noteOutbound("sync", handle.documentId);
    h.fast.reset();
    h.fast.receive(handle.documentId, changes);
    await settle();
    expect(handle.doc().text).toBe("x");
    expect(h.fast.carries(handle.documentId)).toBe(false);
  });

  it("leaves bytes that are not changes alone: nothing applied, nothing noted, nothing thrown", async () => {
    const h = harness();
    const handle = h.repo.create<Notes>({ text: "x" });
    h.fast.noteOutbound("sync", handle.documentId);
    const { changes } = changesOnCopy(handle, (d) => A.splice(d, ["text"], 1, 0, "y"));
    const flipped = Uint8Array.from(changes[0]);
    flipped[flipped.length - 1] ^= 1;
    h.fast.receive(handle.documentId, [flipped]);
    h.fast.receive(handle.documentId, [Uint8Array.of(1, 2, 3)]);
    await settle();
    expect(handle.doc().text).toBe("x");
    expect(h.noted).toEqual([]);
    // The same batch, intact, still applies, even beside a bad one in the same read (they are never merged).
    h.fast.receive(handle.documentId, [flipped]);
    h.fast.receive(handle.documentId, changes);
    await settle();
    expect(handle.doc().text).toBe("xy");
    expect(h.noted).toEqual([[A.decodeChange(changes[0]).hash]]);
  });

  it("spaces applies by their cost: a display frame at least, FAST_PATH_APPLY_BUSY_SHARE of the thread, capped", () => {
    expect(applySpacing(0)).toBe(FAST_PATH_APPLY_MIN_INTERVAL_MS);
    expect(applySpacing(FAST_PATH_APPLY_MIN_INTERVAL_MS * FAST_PATH_APPLY_BUSY_SHARE)).toBe(FAST_PATH_APPLY_MIN_INTERVAL_MS);
    expect(applySpacing(10)).toBe(10 / FAST_PATH_APPLY_BUSY_SHARE);
    expect(applySpacing(FAST_PATH_APPLY_MAX_WAIT_MS * FAST_PATH_APPLY_BUSY_SHARE)).toBe(FAST_PATH_APPLY_MAX_WAIT_MS);
    expect(applySpacing(FAST_PATH_APPLY_MAX_WAIT_MS * FAST_PATH_APPLY_BUSY_SHARE + 1)).toBe(FAST_PATH_APPLY_MAX_WAIT_MS);
  });

  it.each([
    ["an instant apply (a display frame, FAST_PATH_APPLY_MIN_INTERVAL_MS)", 0],
    ["a slow apply (40 ms)", 40],
    ["an apply slower than the cap allows for", FAST_PATH_APPLY_MAX_WAIT_MS],
  ])("after %s, holds a document's next batches until applySpacing of its cost, then applies them together", async (_name, costMs) => {
    // The injected clock reports every apply as taking costMs (each read is costMs after the one before).
    let t = 0;
    const h = harness(() => (t += costMs));
    const { handle, next } = carriedDocument(h);
    const spacing = applySpacing(costMs);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      h.fast.receive(handle.documentId, next("a"));
      await settle();
      expect(handle.doc().text).toBe("a");
      h.fast.receive(handle.documentId, next("b"));
      await settle();
      h.fast.receive(handle.documentId, next("c"));
      await settle();
      await vi.advanceTimersByTimeAsync(spacing - 1);
      expect(handle.doc().text).toBe("a");
      await vi.advanceTimersByTimeAsync(1);
      expect(handle.doc().text).toBe("abc");
      expect(h.fast.stats.appliedFrames).toBe(2);
      // A batch that long after the last apply goes in at once.
      await vi.advanceTimersByTimeAsync(spacing);
      h.fast.receive(handle.documentId, next("d"));
      await settle();
      expect(handle.doc().text).toBe("abcd");
    } finally {
      vi.useRealTimers();
    }
  });

  it("asks for a sync round when a received batch misses its dependencies, and for a burst above FAST_PATH_MAX_BYTES", async () => {
    const h = harness();
    const handle = h.repo.create<Notes>({ text: "" });
    h.fast.noteOutbound("sync", handle.documentId);
    const first = changesOnCopy(handle, (d) => A.splice(d, ["text"], 0, 0, "1"));
    const second = A.getChanges(first.after, A.change(first.after, (d) => A.splice(d, ["text"], 1, 0, "2")));
    h.fast.receive(handle.documentId, second);
    await settle();
    expect(h.syncRounds).toEqual([handle.documentId]);
    expect(handle.doc().text).toBe("");
    // Automerge queued the orphan; once its dependency arrives (held for the apply interval) both apply.
    h.fast.receive(handle.documentId, first.changes);
    await vi.waitFor(() => expect(handle.doc().text).toBe("12"));

    handle.change((d) => A.splice(d, ["text"], 0, 0, "z".repeat(FAST_PATH_MAX_BYTES + 1)));
    await settle();
    expect(h.sent).toEqual([]);
    expect(h.syncRounds).toEqual([handle.documentId, handle.documentId]);
  });

  it("holds a batch for an admitted document whose handle the Repo has not made yet, and applies it when it opens", async () => {
    const h = harness();
    const source = A.from<Notes>({ text: "s" });
    const documentId = "3ZVnJWUDzcdHjJ5s3UwJDX5zMTZb" as DocumentId;
    h.fast.noteInbound("request", documentId);
    const next = A.change(A.clone(source), (d) => A.splice(d, ["text"], 1, 0, "!"));
    h.fast.receive(documentId, A.getChanges(source, next));
    await settle();
    const handle = h.repo.import<Notes>(A.save(source), { docId: documentId });
    // What the Repo's synchronizer emits once it opens the document for a peer.
    h.repo.synchronizer.emit("open-doc", { documentId, peerId: "window" as PeerId });
    expect(handle.doc().text).toBe("s!");
  });
});
