/**
 * The relay acknowledges changes that crossed on the change fast path. A fast-path client sends its changes as a
 * "changes" frame, then its paced sync message shows heads the relay already holds and carries no changes; stock
 * Automerge takes such a message as proof that the peer already knows the receiver's heads and never answers it, so
 * the client's record of the relay's heads (getSyncInfo, which "N changes waiting" counts from) stayed behind for good.
 */
import { join } from "node:path";
import type { DocHandle, PeerId, StorageId } from "@automerge/automerge-repo";
import { afterEach, beforeEach, expect, it } from "vitest";
import { FAST_PATH_SYNC_INTERVAL_MS } from "../../shared/limits.js";
import { syncWithPeerNow } from "../../shared/sync-pacing.js";
import { startRelay, type RunningRelay } from "../../sync-relay/server.js";
import { toHexHeads } from "../documents/heads.js";
import { relayHolds, startClient, tempDir, type TestClient } from "./test-helpers.js";
import { waitFor } from "../../shared/wait-for.js";

interface Notes {
  items: string[];
}

let dir: ReturnType<typeof tempDir>;
let relay: RunningRelay;
const clients: TestClient[] = [];

beforeEach(async () => {
  dir = tempDir("chopin-relay-ack-");
  relay = await startRelay({ dataDir: join(dir.path, "relay") });
});

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await relay.close();
  dir.remove();
});

/** Whether the client's record of what the relay holds covers every change of the document. */
function relayAcknowledged(c: TestClient, handle: DocHandle<Notes>): boolean {
  const relayPeer = c.repo.peers.find((peer) => c.connection.isRelayPeer(peer)) as PeerId | undefined;
  const storageId = relayPeer ? (c.repo.getStorageIdOfPeer(relayPeer) as StorageId | undefined) : undefined;
  const acked = storageId ? toHexHeads(handle.getSyncInfo(storageId)?.lastHeads ?? []) : [];
  const heads = toHexHeads(handle.heads());
  return heads.length > 0 && heads.every((head) => acked.includes(head));
}

it("tells a fast-path client that it holds the changes the client sent on the fast path", { timeout: 60_000 }, async () => {
  const a = startClient({ url: relay.url, token: relay.users.add("alice").token, peerId: "alice:laptop", dbFile: join(dir.path, "a.sqlite") });
  clients.push(a);
  await waitFor(() => a.connection.status === "connected", "alice connected");
  expect(a.connection.adapter.fastPathActive).toBe(true);
  const handle = a.repo.create<Notes>({ items: [] });
  await relayHolds(relay, handle.documentId);
  await waitFor(() => relayAcknowledged(a, handle), "the relay acknowledges the new document");
  const relayPeer = a.repo.peers.find((peer) => a.connection.isRelayPeer(peer))!;
  for (let round = 0; round < 3; round++) {
    handle.change((d) => void d.items.push(`edit ${round}`));
    // The client's sync round right behind the fast-path frame: the relay takes in the batch, then sees heads equal
    // to its own and no changes, the exact message stock Automerge leaves unanswered.
    syncWithPeerNow(a.repo, handle.documentId, relayPeer);
    const heads = JSON.stringify(handle.heads());
    await waitFor(() => JSON.stringify(relay.repo.handles[handle.documentId]?.heads()) === heads, `the relay holds edit ${round}`);
    await waitFor(() => relayAcknowledged(a, handle), `the relay acknowledges edit ${round}`, 3 * FAST_PATH_SYNC_INTERVAL_MS);
  }
  expect(a.connection.adapter.fastPathStats.sentChanges).toBeGreaterThanOrEqual(3);
});
