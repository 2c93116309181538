import { next as A } from "@automerge/automerge";
import { Repo, type DocHandle, type DocumentId, type PeerId } from "@automerge/automerge-repo";
import { MessageChannelNetworkAdapter } from "@automerge/automerge-repo-network-messagechannel";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FAST_PATH_SYNC_INTERVAL_MS, NOTED_CHANGE_TTL_MS } from "./limits.js";
import { notePeerHas, SyncPacing, syncPacing, syncWithPeerNow } from "./sync-pacing.js";
import { waitFor } from "./wait-for.js";

interface Text {
  text: string;
}

/** A hub Repo connected to each spoke by its own MessageChannel, as the relay is to its clients. */
async function star(spokes: string[]): Promise<{ hub: Repo; repos: Map<string, Repo>; close(): Promise<void> }> {
  const hub = new Repo({ peerId: "hub" as PeerId, network: [] });
  const repos = new Map<string, Repo>();
  const channels: MessageChannel[] = [];
  for (const name of spokes) {
    const channel = new MessageChannel();
    channels.push(channel);
    hub.networkSubsystem.addNetworkAdapter(new MessageChannelNetworkAdapter(channel.port1 as unknown as MessagePort));
    repos.set(name, new Repo({ peerId: name as PeerId, network: [new MessageChannelNetworkAdapter(channel.port2 as unknown as MessagePort)] }));
  }
  await vi.waitFor(() => expect(hub.peers.length).toBe(spokes.length), { timeout: 10_000 });
  return {
    hub,
    repos,
    async close() {
      await Promise.all([hub, ...repos.values()].map((r) => r.shutdown()));
      for (const c of channels) {
        c.port1.close();
        c.port2.close();
      }
    },
  };
}

async function open(repo: Repo, handle: DocHandle<Text>): Promise<DocHandle<Text>> {
  return vi.waitFor(() => repo.find<Text>(handle.url), { timeout: 10_000 });
}

/** Counts what `from` sends `to` and what `to` receives from `from`, for one direction of one link. */
function countLink(from: Repo, to: Repo): () => boolean {
  let sent = 0;
  let received = 0;
  from.synchronizer.on("message", (m) => void (m.targetId === to.peerId && sent++));
  to.networkSubsystem.on("message", (m) => void (m.senderId === from.peerId && received++));
  return () => sent === received;
}

/**
 * True once the link is quiet: nothing in transit either way and neither side's sync state has anything to send, so a
 * message after this point was started by the pacing under test, not by the tail of the first sync.
 */
function quiet(a: Repo, b: Repo, documentId: string): () => void {
  const ab = countLink(a, b);
  const ba = countLink(b, a);
  const states = new Map<string, A.SyncState>();
  for (const [self, other] of [[a, b], [b, a]] as const) {
    self.synchronizer.on("sync-state", (e) => void (e.peerId === other.peerId && e.documentId === documentId && states.set(self.peerId, e.syncState)));
  }
  const idle = (self: Repo): boolean => {
    const state = states.get(self.peerId);
    const doc = self.handles[documentId as DocumentId]?.doc();
    return state !== undefined && doc !== undefined && A.generateSyncMessage(doc, state)[1] === null;
  };
  return () => expect(ab() && ba() && idle(a) && idle(b)).toBe(true);
}

/** How many changes each sync message `from` sends `to` carries, in order. */
function changesSentTo(from: Repo, to: string): number[] {
  const carried: number[] = [];
  from.synchronizer.on("message", (m) => {
    if (m.targetId === to && "data" in m && m.type === "sync") carried.push(A.decodeSyncMessage(m.data).changes.length);
  });
  return carried;
}

/** Polls on the real clock (performance.now and setTimeout stay real when only Date is faked). */
const pollUntil = (condition: () => boolean, timeoutMs?: number) => waitFor(condition, "the paced sync condition", timeoutMs);

/**
 * A hub document open on the "paced" spoke, paced at `intervalMs` from the hub, once the first sync has gone quiet.
 * `settled` tells when the link is quiet again.
 */
async function pacedDocument(net: { hub: Repo; repos: Map<string, Repo> }, intervalMs: number) {
  const origin = net.hub.create<Text>({ text: "" });
  const pacedRepo = net.repos.get("paced")!;
  const settled = quiet(net.hub, pacedRepo, origin.documentId);
  const paced = await open(pacedRepo, origin);
  syncPacing().set("hub", "paced", intervalMs);
  await vi.waitFor(settled, { timeout: 10_000 });
  return { origin, paced, settled };
}

describe("SyncPacing registry", () => {
  it("paces each (local, remote) pair on its own; a cleared pair is back to the stock pace, the others kept", () => {
    const pacing = new SyncPacing();
    pacing.set("core", "relay", 500);
    pacing.set("core", "window", 20);
    pacing.set("relay", "core", 700);
    expect([pacing.intervalFor("core", "relay"), pacing.intervalFor("core", "window"), pacing.intervalFor("relay", "core")]).toEqual([500, 20, 700]);
    expect(pacing.intervalFor("window", "core")).toBeUndefined();
    pacing.clear("core", "relay");
    expect(pacing.intervalFor("core", "relay")).toBeUndefined();
    expect(pacing.intervalFor("core", "window")).toBe(20);
    pacing.clear("core", "window");
    pacing.clear("core", "window");
    expect(pacing.intervalFor("relay", "core")).toBe(700);
    pacing.set("core", "relay", 40);
    expect(pacing.intervalFor("core", "relay")).toBe(40);
  });
});

describe("sync pacing (patched automerge-repo DocSynchronizer)", () => {
  const registry = syncPacing();
  afterEach(() => {
    vi.useRealTimers();
    registry.clear("hub", "paced");
  });

  it("keeps the stock pace for pairs without an entry and keys entries by both peers", () => {
    registry.set("hub", "paced", 5000);
    expect(registry.intervalFor("hub", "paced")).toBe(5000);
    expect(registry.intervalFor("paced", "hub")).toBeUndefined();
    expect(registry.intervalFor("hub", "other")).toBeUndefined();
    registry.clear("hub", "paced");
    expect(registry.intervalFor("hub", "paced")).toBeUndefined();
  });

  it("is one registry per process, on a global symbol", () => {
    expect(syncPacing()).toBe(registry);
    expect((globalThis as Record<symbol, unknown>)[Symbol.for("automerge-repo.syncPacing")]).toBe(registry);
  });

  it("syncs a paced peer on its own slower clock while stock peers keep 100 ms, and syncWithPeerNow skips the wait", async () => {
    const net = await star(["stock", "paced"]);
    try {
      const { origin, paced } = await pacedDocument(net, 60_000);
      const stock = await open(net.repos.get("stock")!, origin);

      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
      origin.change((d) => A.splice(d, ["text"], 0, 0, "a"));
      // The stock peer's round fires after 100 ms of (fake) time; the paced peer's not for a minute.
      await vi.advanceTimersByTimeAsync(150);
      await vi.waitFor(() => expect(stock.doc().text).toBe("a"));
      await vi.advanceTimersByTimeAsync(1000);
      expect(paced.doc().text).toBe("");

      expect(syncWithPeerNow(net.hub, origin.documentId, "paced")).toBe(true);
      await vi.waitFor(() => expect(paced.doc().text).toBe("a"));
      vi.useRealTimers();

      // Back to the stock pace once the entry is cleared.
      registry.clear("hub", "paced");
      origin.change((d) => A.splice(d, ["text"], 1, 0, "b"));
      await vi.waitFor(() => expect(paced.doc().text).toBe("ab"), { timeout: 10_000 });
    } finally {
      vi.useRealTimers();
      await net.close();
    }
  });

  it.each([
    ["FAST_PATH_SYNC_INTERVAL_MS", FAST_PATH_SYNC_INTERVAL_MS],
    ["a short local pace", 10],
  ])("syncs a peer paced at %s no sooner than that after a change, and then at once", async (_name, interval) => {
    const net = await star(["paced"]);
    try {
      const { origin, paced, settled } = await pacedDocument(net, interval);
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
      origin.change((d) => A.splice(d, ["text"], 0, 0, "z"));
      await vi.advanceTimersByTimeAsync(interval - 1);
      expect(paced.doc().text).toBe("");
      await vi.advanceTimersByTimeAsync(1);
      await vi.waitFor(() => expect(paced.doc().text).toBe("z"));
    } finally {
      vi.useRealTimers();
      await net.close();
    }
  });

  it("does not send a peer again the changes noted as already there (they crossed on the fast path)", async () => {
    const net = await star(["paced"]);
    try {
      const { origin, paced, settled } = await pacedDocument(net, 60_000);
      const carried = changesSentTo(net.hub, "paced");
      // One change crosses "by another channel", as the fast path does; then a protocol round is forced.
      const crossOver = (note: boolean): void => {
        const before = A.getHeads(origin.doc());
        origin.change((d) => A.splice(d, ["text"], d.text.length, 0, "q"));
        const changes = A.getChanges(A.view(origin.doc(), before), origin.doc());
        paced.update((d) => A.applyChanges(d, changes)[0]);
        if (note) notePeerHas(net.hub, origin.documentId, "paced", changes.map((c) => A.decodeChange(c).hash as string));
        syncWithPeerNow(net.hub, origin.documentId, "paced");
      };
      crossOver(false);
      await vi.waitFor(() => expect(carried.length).toBe(1), { timeout: 10_000 });
      expect(carried[0]).toBeGreaterThan(0);
      await vi.waitFor(settled, { timeout: 10_000 });
      crossOver(true);
      await vi.waitFor(() => expect(carried.length).toBe(2), { timeout: 10_000 });
      expect(carried[1]).toBe(0);
    } finally {
      await net.close();
    }
  });

  it.each([
    ["kept at NOTED_CHANGE_TTL_MS", NOTED_CHANGE_TTL_MS, 0],
    ["forgotten 1 ms after it", NOTED_CHANGE_TTL_MS + 1, 1],
  ])("a noted change is %s (a later note drops older ones; the next round then carries it again)", async (_name, age, resent) => {
    const net = await star(["paced"]);
    try {
      const { origin, paced } = await pacedDocument(net, 60_000);
      const carried = changesSentTo(net.hub, "paced");
      vi.useFakeTimers({ toFake: ["Date"] });
      const crossNoted = (char: string): void => {
        const before = A.getHeads(origin.doc());
        origin.change((d) => A.splice(d, ["text"], d.text.length, 0, char));
        const changes = A.getChanges(A.view(origin.doc(), before), origin.doc());
        paced.update((d) => A.applyChanges(d, changes)[0]);
        notePeerHas(net.hub, origin.documentId, "paced", changes.map((c) => A.decodeChange(c).hash as string));
      };
      crossNoted("a");
      vi.setSystemTime(Date.now() + age);
      crossNoted("b");
      syncWithPeerNow(net.hub, origin.documentId, "paced");
      // Not vi.waitFor: with a fake clock it advances the clock, and the round would see older notes.
      await pollUntil(() => carried.length === 1);
      expect(carried[0]).toBe(resent);
    } finally {
      vi.useRealTimers();
      await net.close();
    }
  });

  it("keeps a younger note when the stale ones before it are cut from the queue, and forgets it at its own time", async () => {
    const net = await star(["paced"]);
    try {
      const { origin } = await pacedDocument(net, 60_000);
      // notePeerHas writes into the sync state the hub keeps for "paced", the one it last reported.
      let state: A.SyncState | undefined;
      net.hub.synchronizer.on("sync-state", (e) => void (e.peerId === "paced" && e.documentId === origin.documentId && (state = e.syncState)));
      syncWithPeerNow(net.hub, origin.documentId, "paced");
      await pollUntil(() => state !== undefined);
      vi.useFakeTimers({ toFake: ["Date"] });
      const start = Date.now();
      const note = (...hashes: string[]) => notePeerHas(net.hub, origin.documentId, "paced", hashes);
      const held = (...hashes: string[]) => hashes.filter((h) => (state as unknown as { sentHashes: Record<string, true> }).sentHashes[h]);
      const hash = (n: number) => n.toString(16).padStart(64, "0");
      note(hash(1), hash(2), hash(3), hash(4), hash(5));
      vi.setSystemTime(start + NOTED_CHANGE_TTL_MS / 2);
      note(hash(6));
      // Five of seven notes are stale: the queue's front is cut off, and the younger note must survive the cut.
      vi.setSystemTime(start + NOTED_CHANGE_TTL_MS + 1);
      note(hash(7));
      expect(held(hash(1), hash(2), hash(3), hash(4), hash(5), hash(6), hash(7))).toEqual([hash(6), hash(7)]);
      vi.setSystemTime(start + NOTED_CHANGE_TTL_MS / 2 + NOTED_CHANGE_TTL_MS + 1);
      note(hash(8));
      expect(held(hash(6), hash(7), hash(8))).toEqual([hash(7), hash(8)]);
    } finally {
      vi.useRealTimers();
      await net.close();
    }
  });

  it("sends a noted change the peer never got once the note is older than NOTED_CHANGE_TTL_MS, with no later note", async () => {
    const net = await star(["paced"]);
    try {
      const { origin, paced } = await pacedDocument(net, 60_000);
      vi.useFakeTimers({ toFake: ["Date"] });
      const before = A.getHeads(origin.doc());
      origin.change((d) => A.splice(d, ["text"], d.text.length, 0, "lost"));
      // Noted as delivered, but the batch never arrived (the peer is not given it).
      const changes = A.getChanges(A.view(origin.doc(), before), origin.doc());
      notePeerHas(net.hub, origin.documentId, "paced", changes.map((c) => A.decodeChange(c).hash as string));
      vi.setSystemTime(Date.now() + NOTED_CHANGE_TTL_MS + 1);
      syncWithPeerNow(net.hub, origin.documentId, "paced");
      await vi.waitFor(() => expect(paced.doc().text).toBe("lost"), { timeout: 10_000 });
    } finally {
      vi.useRealTimers();
      await net.close();
    }
  });

  it("gives a paced peer that asked for a document the document at once, when this side only just fetched it", async () => {
    // source -- hub -- paced: the hub has the document only once it asked the source (a core opening a teammate's
    // plan it had not loaded, for its window). The window must not wait for its paced round to get it.
    const source = new Repo({ peerId: "source" as PeerId, network: [], shareConfig: { announce: async () => false, access: async () => true } });
    const hub = new Repo({ peerId: "hub" as PeerId, network: [] });
    const pacedRepo = new Repo({ peerId: "paced" as PeerId, network: [] });
    const channels = [new MessageChannel(), new MessageChannel()];
    const link = (a: Repo, b: Repo, channel: MessageChannel): void => {
      a.networkSubsystem.addNetworkAdapter(new MessageChannelNetworkAdapter(channel.port1 as unknown as MessagePort));
      b.networkSubsystem.addNetworkAdapter(new MessageChannelNetworkAdapter(channel.port2 as unknown as MessagePort));
    };
    registry.set("hub", "paced", 60_000);
    try {
      link(source, hub, channels[0]!);
      link(hub, pacedRepo, channels[1]!);
      await vi.waitFor(() => expect(hub.peers.length).toBe(2), { timeout: 10_000 });
      const origin = source.create<Text>({ text: "teammate's plan" });
      const opened = await vi.waitFor(() => pacedRepo.find<Text>(origin.url), { timeout: 10_000 });
      expect(opened.doc().text).toBe("teammate's plan");
    } finally {
      await Promise.all([source, hub, pacedRepo].map((r) => r.shutdown()));
      for (const c of channels) {
        c.port1.close();
        c.port2.close();
      }
    }
  });

  it("answers false for a document the Repo has no synchronizer for", () => {
    const repo = new Repo({ peerId: "lonely" as PeerId, network: [] });
    expect(syncWithPeerNow(repo, "4NMNnkMhL8jXrdJ9jamS58PAVdXu", "anyone")).toBe(false);
  });
});

/**
 * The cost half of the same patch: the synchronizer schedules sync on "heads-changed", so DocHandle computes the
 * patches of a "change" event only for someone listening (a relay's handles have no such listener).
 */
describe("sync on heads-changed, patches only for listeners (patched DocSynchronizer and DocHandle)", () => {
  it("syncs a change with no visible effect (stock automerge-repo waits for a change event that never comes)", async () => {
    const net = await star(["stock"]);
    try {
      const origin = net.hub.create<Text>({ text: "x" });
      const stockRepo = net.repos.get("stock")!;
      const settled = quiet(net.hub, stockRepo, origin.documentId);
      const copy = await open(stockRepo, origin);
      await vi.waitFor(settled, { timeout: 10_000 });
      origin.update((doc) => A.emptyChange(doc, "nothing visible"));
      await vi.waitFor(() => expect(A.getHeads(copy.doc())).toEqual(A.getHeads(origin.doc())), { timeout: 5000 });
      expect(copy.doc().text).toBe("x");
    } finally {
      await net.close();
    }
  });

  it("still gives a change listener its patches, and reports new heads to a handle without one", () => {
    const repo = new Repo({ network: [] });
    const handle = repo.create<Text>({ text: "" });
    const patches: A.Patch[][] = [];
    let headsChanged = 0;
    handle.on("heads-changed", () => void headsChanged++);
    handle.change((d) => A.splice(d, ["text"], 0, 0, "a"));
    expect(headsChanged).toBe(1);
    handle.on("change", (e) => void patches.push(e.patches));
    handle.change((d) => A.splice(d, ["text"], 1, 0, "b"));
    expect(patches).toEqual([[expect.objectContaining({ action: "splice", path: ["text", 1], value: "b" })]]);
  });
});

describe("automerge-repo patch: a handle deleted while its synchronizer waits for it", () => {
  it("rejects nothing unhandled when beginSync waits on a handle that is then deleted", async () => {
    const { hub, repos, close } = await star(["a"]);
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown): void => void rejections.push(reason);
    process.on("unhandledRejection", onRejection);
    try {
      const created = repos.get("a")!.create<Text>({ text: "x" });
      const handle = await open(hub, created);
      const synchronizer = hub.synchronizer.docSynchronizers[handle.documentId] as unknown as {
        peerStates: Record<string, string>;
        beginSync(peers: PeerId[]): Promise<void>;
      };
      // A peer holds the document, so beginSync for a newcomer waits for the handle to be ready again.
      await vi.waitFor(() => expect(Object.values(synchronizer.peerStates)).toContain("has"));
      handle.unload();
      void synchronizer.beginSync(["newcomer" as PeerId]);
      handle.delete();
      // Unhandled rejections are reported after the turn that dropped them: let two turns pass.
      for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(rejections).toEqual([]);
    } finally {
      process.off("unhandledRejection", onRejection);
      await close();
    }
  });

  it("drops a scheduled round for a handle the Repo let go of, instead of waiting the timeout and logging", async () => {
    const { hub, repos, close } = await star(["a"]);
    const logged = vi.spyOn(console, "log");
    try {
      const created = repos.get("a")!.create<Text>({ text: "x" });
      const handle = await open(hub, created);
      const synchronizer = hub.synchronizer.docSynchronizers[handle.documentId] as unknown as { syncWithPeerNow(peer: PeerId): void };
      // Unloaded with a round still to run (as the relay's eviction and the core's release of a prefetched plan do).
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      await hub.removeFromCache(handle.documentId);
      synchronizer.syncWithPeerNow("a" as PeerId);
      // Stock: the round waited for "ready" until the handle's timeout (60 s), then logged that it threw.
      await vi.advanceTimersByTimeAsync(120_000);
      expect(logged.mock.calls.flat().join(" ")).not.toMatch(/sync with peer threw/);
      expect(handle.isUnloaded()).toBe(true);
    } finally {
      vi.useRealTimers();
      logged.mockRestore();
      await close();
    }
  });
});
