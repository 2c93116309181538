/**
 * Two (or three) real client Repos with SQLite storage syncing through one in-process relay on 127.0.0.1.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Repo, type AutomergeUrl, type DocHandle, type DocumentId } from "@automerge/automerge-repo";
import { MessageChannelNetworkAdapter } from "@automerge/automerge-repo-network-messagechannel";
import { startRelay, type RunningRelay } from "../../sync-relay/server.js";
import { relayHolds, setUpRelay, startClient, tearDownRelay, type RelayFixture, type TestClient } from "./test-helpers.js";
import { waitFor } from "../../shared/wait-for.js";

interface Notes {
  items: string[];
}

let dir: RelayFixture["dir"];
let relay: RunningRelay;
let tokens: Record<string, string>;
const clients: TestClient[] = [];

function client(handle: string, device: string, token = tokens[handle], fastPath = true): TestClient {
  const c = startClient({
    url: relay.url,
    token,
    peerId: `${handle}:${device}`,
    dbFile: join(dir.path, `${handle}-${device}-${clients.length}.sqlite`),
    fastPath,
  });
  clients.push(c);
  return c;
}

async function connected(c: TestClient): Promise<void> {
  await waitFor(() => c.connection.status === "connected", `${c.connection.peerId} connected`);
}

/**
 * Resolves once `count` has not moved for `quietMs`: traffic has stopped. A sync loop never stops, so it times out.
 */
async function quiet(count: () => number, quietMs: number, what: string): Promise<void> {
  let last = count();
  let since = Date.now();
  await waitFor(() => {
    if (count() !== last) {
      last = count();
      since = Date.now();
    }
    return Date.now() - since >= quietMs;
  }, what, 30_000);
}

/** Every repo message the relay's Repo takes in or sends out (fast-path batches are not repo messages). */
function relayTraffic(): () => number {
  let messages = 0;
  relay.adapter.on("message", () => messages++);
  relay.repo.synchronizer.on("message", () => messages++);
  return () => messages;
}

function sameHeads(a: DocHandle<unknown>, b: DocHandle<unknown>): boolean {
  return JSON.stringify([...a.heads()].sort()) === JSON.stringify([...b.heads()].sort());
}

beforeEach(async () => {
  ({ dir, relay, tokens } = await setUpRelay("chopin-relay-sync-"));
});

afterEach(async () => {
  await tearDownRelay({ dir, relay, tokens }, clients);
});

describe("sync through the relay", () => {
  it("converges two clients, and a document created on A is found on B", async () => {
    const a = client("alice", "laptop");
    const b = client("bob", "desktop");
    await Promise.all([connected(a), connected(b)]);

    const handleA = a.repo.create<Notes>({ items: ["from alice"] });
    await relayHolds(relay, handleA.documentId);
    const handleB = await b.repo.find<Notes>(handleA.url);
    expect(handleB.doc().items).toEqual(["from alice"]);

    handleB.change((d) => void d.items.push("from bob"));
    handleA.change((d) => void d.items.push("also from alice"));
    await waitFor(() => sameHeads(handleA, handleB), "both sides converge");
    expect([...handleA.doc().items].sort()).toEqual(["also from alice", "from alice", "from bob"]);
    expect(handleB.doc().items).toEqual(handleA.doc().items);
  });

  it("keeps every edit made while one client was offline", async () => {
    const a = client("alice", "laptop");
    const b = client("bob", "desktop");
    await Promise.all([connected(a), connected(b)]);
    const handleA = a.repo.create<Notes>({ items: [] });
    await relayHolds(relay, handleA.documentId);
    const handleB = await b.repo.find<Notes>(handleA.url);

    b.connection.adapter.disconnect();
    expect(b.connection.status).toBe("offline");
    for (let i = 0; i < 5; i++) {
      handleA.change((d) => void d.items.push(`a${i}`));
      handleB.change((d) => void d.items.push(`b${i}`));
    }
    b.connection.adapter.connect(b.repo.peerId);
    await connected(b);
    await waitFor(() => sameHeads(handleA, handleB) && handleA.doc().items.length === 10, "offline edits merge");
    expect([...handleB.doc().items].sort()).toEqual(["a0", "a1", "a2", "a3", "a4", "b0", "b1", "b2", "b3", "b4"]);
  });

  for (const fastPath of [true, false]) {
    it(`converges after every one of 30+ offline/online cycles with concurrent edits, then goes quiet (no reconnect sync loop; change fast path ${fastPath ? "on" : "off"})`, async () => {
      const a = client("alice", "laptop", undefined, fastPath);
      const b = client("bob", "desktop", undefined, fastPath);
      await Promise.all([connected(a), connected(b)]);
      // With the fast path off, only automerge-repo's sync protocol can carry the edits below.
      expect([...relay.adapter.fastSessions()]).toHaveLength(fastPath ? 2 : 0);
      const traffic = relayTraffic();
      const handleA = a.repo.create<Notes>({ items: [] });
      const second = a.repo.create<Notes>({ items: [] });
      await relayHolds(relay, handleA.documentId);
      const handleB = await b.repo.find<Notes>(handleA.url);
      const secondB = await b.repo.find<Notes>(second.url);

      const CYCLES = 32;
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        // Alternate who goes offline; every fourth cycle both do.
        const offline = cycle % 4 === 3 ? [a, b] : cycle % 2 === 0 ? [a] : [b];
        for (const c of offline) c.connection.adapter.disconnect();
        handleA.change((d) => void d.items.push(`a${cycle}`));
        handleB.change((d) => void d.items.push(`b${cycle}`));
        if (cycle % 3 === 0) secondB.change((d) => void d.items.push(`s${cycle}`));
        for (const c of offline) c.connection.adapter.connect(c.repo.peerId);
        await Promise.all(offline.map(connected));
        await waitFor(() =>
            sameHeads(handleA, handleB) &&
            sameHeads(second, secondB) &&
            handleA.doc().items.length === 2 * (cycle + 1), `convergence after cycle ${cycle}`);
      }
      const expected = Array.from({ length: CYCLES }, (_, i) => [`a${i}`, `b${i}`]).flat().sort();
      expect([...handleA.doc().items].sort()).toEqual(expected);
      expect([...handleB.doc().items].sort()).toEqual(expected);
      expect(second.doc().items).toEqual(secondB.doc().items);
      // Nothing changes any more, so the relay's messages must stop: a reconnect loop keeps them going forever.
      expect(traffic()).toBeGreaterThan(0);
      await quiet(traffic, 1500, "relay traffic stops once both sides converged");
      const settled = sameHeads(handleA, handleB) && sameHeads(second, secondB);
      expect(settled).toBe(true);
    }, 180_000);
  }

  it("loses nothing across a relay restart on the same data directory", async () => {
    const a = client("alice", "laptop");
    await connected(a);
    const handleA = a.repo.create<Notes>({ items: ["before restart"] });
    await relayHolds(relay, handleA.documentId);
    await waitFor(async () => (await relay.repo.storageSubsystem!.loadDoc(handleA.documentId)) !== null, "relay saved it");
    const port = relay.port;
    const teamIndex = relay.teamIndexDocumentId;
    await relay.close();
    await waitFor(() => a.connection.status !== "connected", "client notices the relay is gone");

    // Edits made while the relay is down reach it after it returns.
    handleA.change((d) => void d.items.push("while relay down"));
    relay = await startRelay({ dataDir: join(dir.path, "relay"), port });
    expect(relay.teamIndexDocumentId).toBe(teamIndex);
    await connected(a);

    const b = client("bob", "desktop");
    await connected(b);
    const handleB = await b.repo.find<Notes>(handleA.url);
    await waitFor(() => handleB.doc().items.length === 2, "bob sees both edits");
    expect(handleB.doc().items).toEqual(["before restart", "while relay down"]);
  });

  it("never lets a private document reach the relay", async () => {
    const a = client("alice", "laptop");
    const b = client("bob", "desktop");
    await Promise.all([connected(a), connected(b)]);
    const privateHandle = a.repo.create<Notes>({ items: ["secret"] });
    a.privateDocs.add(privateHandle.documentId);
    privateHandle.change((d) => void d.items.push("still secret"));
    const shared = a.repo.create<Notes>({ items: ["public"] });
    await waitFor(() => relay.repo.handles[shared.documentId]?.isReady() ?? false, "relay has the shared document");

    // Bob asks the relay for the private document by id: the relay cannot have it, so it answers unavailable.
    await expect(b.repo.find(privateHandle.url as AutomergeUrl)).rejects.toThrow(/unavailable/);
    expect(relay.repo.handles[privateHandle.documentId]?.isReady() ?? false).toBe(false);
    expect(await relay.repo.storageSubsystem!.loadDoc(privateHandle.documentId as DocumentId)).toBeNull();
    // The shared one does reach relay storage (so the absence above is not just "nothing was saved yet").
    await waitFor(async () => (await relay.repo.storageSubsystem!.loadDoc(shared.documentId)) !== null, "shared doc saved");
    expect(await relay.repo.storageSubsystem!.loadDoc(privateHandle.documentId as DocumentId)).toBeNull();
  });

  it("fans a change out to several clients of the same user", async () => {
    const laptop = client("alice", "laptop");
    const phone = client("alice", "phone");
    const b = client("bob", "desktop");
    await Promise.all([connected(laptop), connected(phone), connected(b)]);
    const h = b.repo.create<Notes>({ items: ["x"] });
    await relayHolds(relay, h.documentId);
    const [h1, h2] = await Promise.all([laptop.repo.find<Notes>(h.url), phone.repo.find<Notes>(h.url)]);
    h.change((d) => void d.items.push("y"));
    await waitFor(() => h1.doc().items.length === 2 && h2.doc().items.length === 2, "both devices get the change");
  });

  it("relays ephemeral messages (presence) between clients under the sender's own peer id", async () => {
    const a = client("alice", "laptop");
    const b = client("bob", "desktop");
    await Promise.all([connected(a), connected(b)]);
    const handleA = a.repo.create<Notes>({ items: [] });
    await relayHolds(relay, handleA.documentId);
    const handleB = await b.repo.find<Notes>(handleA.url);
    const received: { senderId: string; message: unknown }[] = [];
    handleB.on("ephemeral-message", ({ senderId, message }) => received.push({ senderId, message }));
    await waitFor(() => {
      handleA.broadcast({ cursor: 3 });
      return received.length > 0;
    }, "bob receives alice's presence");
    expect(received[0]).toEqual({ senderId: "alice:laptop", message: { cursor: 3 } });
    // Bob's Repo echoes alice's presence back to the relay; that must not cost bob his connection.
    handleA.change((d) => void d.items.push("after presence"));
    await waitFor(() => handleB.doc().items.length === 1, "a later change still arrives");
    expect([a.connection.status, b.connection.status]).toEqual(["connected", "connected"]);
    expect(b.connection.isRelayPeer("alice:laptop")).toBe(true);
  });
  it("relays a window's presence, forwarded by its core under the window's own Repo peer id, to another member", async () => {
    const a = client("alice", "laptop");
    const b = client("bob", "desktop");
    await Promise.all([connected(a), connected(b)]);
    // A window as the app has one: a storage-less Repo with automerge-repo's random peer id, linked to the core.
    const { port1, port2 } = new MessageChannel();
    a.repo.networkSubsystem.addNetworkAdapter(new MessageChannelNetworkAdapter(port1));
    const window = new Repo({ network: [new MessageChannelNetworkAdapter(port2)], shareConfig: { announce: async () => true, access: async () => true } });
    try {
      const handleA = a.repo.create<Notes>({ items: [] });
      await relayHolds(relay, handleA.documentId);
      const [handleB, inWindow] = await Promise.all([b.repo.find<Notes>(handleA.url), window.find<Notes>(handleA.url)]);
      const received: { senderId: string; message: unknown }[] = [];
      handleB.on("ephemeral-message", ({ senderId, message }) => received.push({ senderId, message }));
      await waitFor(() => {
        inWindow.broadcast({ caret: 7 });
        return received.length > 0;
      }, "bob receives the window's presence");
      expect(window.peerId).toMatch(/^peer-/);
      expect(received[0]).toEqual({ senderId: window.peerId, message: { caret: 7 } });
      expect([a.connection.status, b.connection.status]).toEqual(["connected", "connected"]);
    } finally {
      await window.shutdown();
      port1.close();
      port2.close();
    }
  });
});
