/**
 * The change fast path from the client's side: the batch bound, and real client Repos through an in-process relay
 * showing that fresh changes cross on the fast path, that private documents never take it, and that a client without
 * it still syncs. Reconnects, restarts and offline edits run with the fast path on in relay-sync.test.ts.
 */
import { join } from "node:path";
import { next as A } from "@automerge/automerge";
import { generateAutomergeUrl, parseAutomergeUrl, type DocHandle, type DocumentId } from "@automerge/automerge-repo";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FAST_PATH_MAX_BYTES } from "../../shared/limits.js";
import { startRelay, type RunningRelay } from "../../sync-relay/server.js";
import { fastPathBatch } from "./fast-path-client.js";
import { relayHolds, startClient, tempDir, type TestClient } from "./test-helpers.js";
import { waitFor } from "../../shared/wait-for.js";

interface Notes {
  items: string[];
}

let dir: ReturnType<typeof tempDir>;
let relay: RunningRelay;
const clients: TestClient[] = [];

function client(handle: string, device: string, fastPath = true): TestClient {
  const c = startClient({
    url: relay.url,
    token: relay.users.add(handle).token,
    peerId: `${handle}:${device}`,
    dbFile: join(dir.path, `${handle}-${device}.sqlite`),
    fastPath,
  });
  clients.push(c);
  return c;
}

async function connected(...cs: TestClient[]): Promise<void> {
  await waitFor(() => cs.every((c) => c.connection.status === "connected"), "clients connected");
}

function sameHeads(a: DocHandle<unknown>, b: DocHandle<unknown>): boolean {
  return JSON.stringify([...a.heads()].sort()) === JSON.stringify([...b.heads()].sort());
}

beforeEach(async () => {
  dir = tempDir("chopin-fast-path-");
  relay = await startRelay({ dataDir: join(dir.path, "relay") });
});

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await relay.close();
  dir.remove();
});

describe("fastPathBatch", () => {
  it("accepts a batch of exactly FAST_PATH_MAX_BYTES and refuses one above or empty", () => {
    expect(fastPathBatch([new Uint8Array(FAST_PATH_MAX_BYTES - 10), new Uint8Array(10)])).toHaveLength(2);
    expect(fastPathBatch([new Uint8Array(FAST_PATH_MAX_BYTES), new Uint8Array(1)])).toBeNull();
    expect(fastPathBatch([])).toBeNull();
  });

  it("keeps changes that applyChanges takes back in order", () => {
    let source = A.from<{ items: string[] }>({ items: [] });
    const start = A.clone(source);
    const changes: Uint8Array[] = [];
    for (const item of ["a", "b", "c"]) {
      const before = source;
      source = A.change(source, (d) => void d.items.push(item));
      changes.push(...A.getChanges(before, source));
    }
    const batch = fastPathBatch(changes)!;
    expect(A.applyChanges(start, batch)[0].items).toEqual(["a", "b", "c"]);
  });
});

describe("change fast path through the relay", () => {
  it("carries fresh changes on the fast path and the clients converge", async () => {
    const a = client("alice", "laptop");
    const b = client("bob", "desktop");
    await connected(a, b);
    expect([a.connection.adapter.fastPathActive, b.connection.adapter.fastPathActive]).toEqual([true, true]);
    const handleA = a.repo.create<Notes>({ items: [] });
    await relayHolds(relay, handleA.documentId);
    const handleB = await b.repo.find<Notes>(handleA.url);
    // Bob's connection says which changes the relay sent him (the sync indicator counts none of those as his).
    const receivedByBob: string[] = [];
    b.connection.onReceived((documentId, hashes) => {
      if (documentId === handleA.documentId) receivedByBob.push(...hashes);
    });
    for (let i = 0; i < 5; i++) {
      handleA.change((d) => void d.items.push(`edit ${i}`));
      await waitFor(() => handleB.doc().items.length === i + 1, `bob sees edit ${i}`);
    }
    expect(a.connection.adapter.fastPathStats.sentChanges).toBeGreaterThan(0);
    expect(b.connection.adapter.fastPathStats.appliedFrames).toBeGreaterThan(0);
    expect(relay.fastPath.stats.forwarded).toBeGreaterThan(0);
    expect(receivedByBob.length).toBeGreaterThan(0);
    expect(receivedByBob.every((hash) => A.hasHeads(handleA.doc(), [hash]))).toBe(true);
    await waitFor(() => sameHeads(handleA, handleB) && sameHeads(handleA, relay.repo.handles[handleA.documentId]), "same heads everywhere");
    // Bob's edits travel back the same way.
    handleB.change((d) => void d.items.push("reply"));
    await waitFor(() => handleA.doc().items.at(-1) === "reply", "alice sees bob's reply");
  });

  it("never sends a private document's edits on the fast path", async () => {
    const a = client("alice", "laptop");
    const b = client("bob", "desktop");
    await connected(a, b);
    // Private from its first moment: the Repo asks shareConfig about a new document inside create() itself, so a
    // document marked private after create() has already been offered to the relay.
    const secretId = parseAutomergeUrl(generateAutomergeUrl()).documentId;
    a.privateDocs.add(secretId);
    const secret = a.repo.import<Notes>(A.save(A.from({ items: ["secret"] })), { docId: secretId });
    for (let i = 0; i < 10; i++) secret.change((d) => void d.items.push(`still secret ${i}`));
    const shared = a.repo.create<Notes>({ items: [] });
    await waitFor(() => relay.repo.handles[shared.documentId]?.isReady() ?? false, "relay has the shared document");
    await b.repo.find<Notes>(shared.url);
    for (let i = 0; i < 10; i++) secret.change((d) => void d.items.push(`more secret ${i}`));
    expect(a.connection.adapter.fastPathStats.sentChanges).toBe(0);
    // Positive control: edits of the shared document do take the fast path.
    shared.change((d) => void d.items.push("public"));
    await waitFor(() => a.connection.adapter.fastPathStats.sentChanges > 0, "the shared edit took the fast path");
    expect(a.connection.adapter.fastPathStats.sentChanges).toBe(1);
    expect(relay.repo.handles[secret.documentId]?.isReady() ?? false).toBe(false);
    expect(await relay.repo.storageSubsystem!.loadDoc(secret.documentId as DocumentId)).toBeNull();
  });

  it("still syncs a client that never attached its Repo, and sends it no fast-path frames", async () => {
    const a = client("alice", "laptop");
    const plain = client("bob", "desktop", false);
    await connected(a, plain);
    expect(plain.connection.adapter.fastPathActive).toBe(false);
    const handleA = a.repo.create<Notes>({ items: [] });
    await relayHolds(relay, handleA.documentId);
    const handleB = await plain.repo.find<Notes>(handleA.url);
    for (let i = 0; i < 3; i++) handleA.change((d) => void d.items.push(`edit ${i}`));
    await waitFor(() => handleB.doc().items.length === 3, "the plain client gets every edit by sync");
    expect(plain.connection.adapter.fastPathStats.appliedFrames).toBe(0);
    handleB.change((d) => void d.items.push("from plain"));
    await waitFor(() => handleA.doc().items.at(-1) === "from plain", "and its edits reach the fast-path client");
  });
});
