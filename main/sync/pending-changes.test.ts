/**
 * The sync indicator's count over a real Repo and real Automerge changes: local changes the relay has not
 * acknowledged count; changes the relay itself sent (and everything they depend on) do not, even before its next
 * acknowledgement; RelayReceived keeps the newest hashes per document up to its bound.
 */
import { next as A } from "@automerge/automerge";
import { Repo, type DocHandle, type StorageId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import { RELAY_RECEIVED_HEADS_KEPT } from "../util/limits.js";
import { countPendingChanges } from "./pending-changes.js";
import { RelayReceived } from "./relay-received.js";

type Notes = { text: string };
const repos: Repo[] = [];
afterEach(async () => {
  for (const repo of repos.splice(0)) await repo.shutdown().catch(() => undefined);
});

const hexHeads = (heads: unknown) => heads as string[];
const NO_RELAY_ACK: StorageId | null = null;

/**
 * A teammate's change made on `base` (a copy of the document as they had it), applied here as the fast path applies
 * a relay batch; its hash.
 */
function receiveTeammateChange(handle: DocHandle<Notes>, base: A.Doc<Notes>, text: string): string {
  const copy = A.change(A.clone(base, { actor: "ab".repeat(16) }), (d) => A.splice(d, ["text"], 0, 0, text));
  const change = A.getLastLocalChange(copy)!;
  handle.update((doc) => A.applyChanges(doc, [change])[0]);
  return A.decodeChange(change).hash!;
}

describe("countPendingChanges", () => {
  it("counts this device's unacknowledged changes, not those the relay sent it", () => {
    const repo = new Repo({ network: [] });
    repos.push(repo);
    const handle = repo.create<Notes>({ text: "" });
    const created = A.clone(handle.doc());
    handle.change((d) => A.splice(d, ["text"], 0, 0, "mine"));
    const count = (received: RelayReceived) =>
      countPendingChanges(repo, () => true, NO_RELAY_ACK, hexHeads, (id) => received.heads(id));

    const received = new RelayReceived(repo);
    // Nothing acknowledged: the creation and the edit wait.
    expect(count(received)).toBe(2);
    // A teammate's change, concurrent with ours, arrives from the relay: unnoted it counted (the bug); noted as held
    // there, it does not, nor does the creation it builds on; our own edit still waits.
    const hash = receiveTeammateChange(handle, created, "theirs ");
    expect(count(new RelayReceived(repo))).toBe(3);
    received.note(handle.documentId, [hash]);
    expect(count(received)).toBe(1);
  });

  it("treats what a relay batch depends on as held by the relay too", () => {
    const repo = new Repo({ network: [] });
    repos.push(repo);
    const handle = repo.create<Notes>({ text: "" });
    handle.change((d) => A.splice(d, ["text"], 0, 0, "mine"));
    // The teammate built on our change, so the relay holding theirs holds ours.
    const hash = receiveTeammateChange(handle, handle.doc(), "reply ");
    const received = new RelayReceived(repo);
    received.note(handle.documentId, [hash]);
    expect(countPendingChanges(repo, () => true, NO_RELAY_ACK, hexHeads, (id) => received.heads(id))).toBe(0);
  });
});

describe(`RelayReceived (RELAY_RECEIVED_HEADS_KEPT = ${RELAY_RECEIVED_HEADS_KEPT})`, () => {
  it("keeps the newest hashes per document up to the bound, and forgets everything on clear", () => {
    const repo = new Repo({ network: [] });
    repos.push(repo);
    const received = new RelayReceived(repo);
    const hashes = Array.from({ length: RELAY_RECEIVED_HEADS_KEPT + 3 }, (_, i) => `h${i}`);
    received.note("doc", hashes.slice(0, RELAY_RECEIVED_HEADS_KEPT));
    expect(received.heads("doc")).toHaveLength(RELAY_RECEIVED_HEADS_KEPT);
    received.note("doc", hashes.slice(RELAY_RECEIVED_HEADS_KEPT));
    expect(received.heads("doc")).toEqual(hashes.slice(3));
    expect(received.heads("other")).toEqual([]);
    received.clear();
    expect(received.heads("doc")).toEqual([]);
  });
});
