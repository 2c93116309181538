/**
 * The window fast link in host mode's wiring: automerge-repo's WebSocketServerAdapter in a core (on 127.0.0.1, port 0)
 * and BrowserWebSocketClientAdapter in each window, both wrapped in FastLinkAdapter, with the core on a real relay and
 * a teammate's core behind it. A window's keystroke reaches its core as a batch before any sync message carried it,
 * goes on to the relay and the teammate and to the other window, never back to its origin; private documents still
 * never reach the relay; a page without the feature still syncs; a reconnect starts a fresh link.
 */
import { join } from "node:path";
import { next as A } from "@automerge/automerge";
import {
  Repo,
  generateAutomergeUrl,
  parseAutomergeUrl,
  type DocHandle,
  type DocumentId,
  type Message,
  type NetworkAdapterInterface,
  type PeerId,
} from "@automerge/automerge-repo";
import { BrowserWebSocketClientAdapter, WebSocketServerAdapter } from "@automerge/automerge-repo-network-websocket";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { checkedChangeHashes } from "../../shared/fast-link/change-hash.js";
import { FastLinkAdapter } from "../../shared/fast-link/fast-link-adapter.js";
import { verifiedChangeHashes } from "../../shared/node/change-hash.js";
import { relayHolds, setUpRelay, startClient, tearDownRelay, type RelayFixture, type TestClient } from "./test-helpers.js";
import { countWhenSeen } from "../../shared/fast-link/test-helpers.js";
import { waitFor } from "../../shared/wait-for.js";

type Notes = { text: string };

let fixture: RelayFixture;
const clients: TestClient[] = [];
const cleanups: Array<() => Promise<void> | void> = [];

beforeEach(async () => {
  fixture = await setUpRelay("chopin-window-link-");
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await tearDownRelay(fixture, clients);
});

function client(handle: string, device: string): TestClient {
  const c = startClient({
    url: fixture.relay.url,
    token: fixture.tokens[handle],
    peerId: `${handle}:${device}`,
    dbFile: join(fixture.dir.path, `${handle}-${device}.sqlite`),
  });
  clients.push(c);
  return c;
}

interface WindowServer {
  url: string;
  inner: WebSocketServerAdapter;
  adapter: FastLinkAdapter;
  server: WebSocketServer;
  /** Sync messages carrying changes that reached the core from its windows. */
  syncedToCore: { count: number };
}

/** Serves `core`'s Repo to windows as host mode does (main/host/host-server.ts, main/core/app-core.ts). */
async function serveWindows(core: TestClient): Promise<WindowServer> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const inner = new WebSocketServerAdapter(server as unknown as ConstructorParameters<typeof WebSocketServerAdapter>[0]);
  const syncedToCore = { count: 0 };
  inner.on("message", (message: Message) => {
    if ((message.type === "sync" || message.type === "request") && message.data !== undefined && A.decodeSyncMessage(message.data).changes.length > 0) syncedToCore.count++;
  });
  const adapter = new FastLinkAdapter(inner, { side: "core", hashes: verifiedChangeHashes });
  adapter.attachRepo(core.repo);
  adapter.isReady = () => true;
  adapter.whenReady = () => Promise.resolve();
  core.repo.networkSubsystem.addNetworkAdapter(adapter);
  cleanups.push(async () => {
    for (const socket of server.clients) socket.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as { port: number };
  return { url: `ws://127.0.0.1:${port}`, inner, adapter, server, syncedToCore };
}

interface Window {
  repo: Repo;
  peerId: PeerId;
  adapter: NetworkAdapterInterface;
}

/** A window's replica as renderer/src/replica/replica.ts makes it; `fast: false` is a page from before the link. */
function openWindow(server: WindowServer, name: string, fast = true): Window {
  const inner = new BrowserWebSocketClientAdapter(server.url, 50);
  const adapter = fast ? new FastLinkAdapter(inner, { side: "window", hashes: checkedChangeHashes }) : inner;
  const peerId = name as PeerId;
  const repo: Repo = new Repo({
    network: [adapter],
    peerId,
    shareConfig: {
      announce: async () => true,
      access: async (_peer, documentId) => documentId !== undefined && repo.handles[documentId] !== undefined,
    },
  });
  if (adapter instanceof FastLinkAdapter) adapter.attachRepo(repo);
  cleanups.push(() => repo.shutdown().catch(() => undefined));
  return { repo, peerId, adapter };
}

async function open(window: Window, source: DocHandle<Notes>): Promise<DocHandle<Notes>> {
  const handle = await window.repo.find<Notes>(source.url);
  await waitFor(() => handle.doc().text === source.doc().text, `${window.peerId} has the document`);
  return handle;
}


async function connectedToRelay(...cs: TestClient[]): Promise<void> {
  await waitFor(() => cs.every((c) => c.connection.status === "connected"), "cores connected to the relay");
}

describe("window fast link over host mode's WebSocket, with a relay", () => {
  it("carries a keystroke from a window to its core at once, on to the relay, the teammate and the other window, not back", async () => {
    const alice = client("alice", "laptop");
    const bob = client("bob", "desktop");
    await connectedToRelay(alice, bob);
    const windows = await serveWindows(alice);
    const source = alice.repo.create<Notes>({ text: "" });
    await relayHolds(fixture.relay, source.documentId);
    const teammate = await bob.repo.find<Notes>(source.url);
    const a = openWindow(windows, "window-a");
    const b = openWindow(windows, "window-b");
    const [copyA, copyB] = [await open(a, source), await open(b, source)];
    await waitFor(() => windows.adapter.isFastPeer(a.peerId) && windows.adapter.isFastPeer(b.peerId), "both windows on the link");

    const relaySent = alice.connection.adapter.fastPathStats.sentChanges;
    const syncedBefore = windows.syncedToCore.count;
    const seenInCore = countWhenSeen(source, "k", () => windows.syncedToCore.count);
    copyA.change((d) => A.splice(d, ["text"], 0, 0, "k"));
    expect(await seenInCore).toBe(syncedBefore);
    await waitFor(() => teammate.doc().text === "k" && copyB.doc().text === "k", "the teammate and window B have the keystroke");

    expect(windows.adapter.statsFor(a.peerId)).toMatchObject({ appliedFrames: 1, sentChanges: 0 });
    expect(windows.adapter.statsFor(b.peerId)?.sentChanges).toBe(1);
    expect((b.adapter as FastLinkAdapter).statsFor(alice.repo.peerId)?.appliedFrames).toBe(1);
    expect((a.adapter as FastLinkAdapter).statsFor(alice.repo.peerId)?.appliedFrames).toBe(0);
    expect(alice.connection.adapter.fastPathStats.sentChanges).toBe(relaySent + 1);

    // The teammate's reply comes back the same way, to both windows.
    teammate.change((d) => A.splice(d, ["text"], 1, 0, "!"));
    await waitFor(() => copyA.doc().text === "k!" && copyB.doc().text === "k!", "both windows have the reply");
    expect((a.adapter as FastLinkAdapter).statsFor(alice.repo.peerId)?.appliedFrames).toBe(1);
  });

  it("never lets a private document a window edits reach the relay", async () => {
    const alice = client("alice", "laptop");
    await connectedToRelay(alice);
    const windows = await serveWindows(alice);
    // Private from its first moment: the Repo asks shareConfig about a new document inside create() itself.
    const secretId = parseAutomergeUrl(generateAutomergeUrl()).documentId;
    alice.privateDocs.add(secretId);
    const secret = alice.repo.import<Notes>(A.save(A.from<Notes>({ text: "secret" })), { docId: secretId });
    const shared = alice.repo.create<Notes>({ text: "" });
    await relayHolds(fixture.relay, shared.documentId);
    const w = openWindow(windows, "window-a");
    const [secretCopy, sharedCopy] = [await open(w, secret), await open(w, shared)];
    const relaySent = alice.connection.adapter.fastPathStats.sentChanges;
    for (let i = 0; i < 5; i++) secretCopy.change((d) => A.splice(d, ["text"], 0, 0, `${i}`));
    await waitFor(() => secret.doc().text === "43210secret", "the core has the private edits");
    // Positive control: the shared document's edit goes from the window through the core to the relay.
    sharedCopy.change((d) => A.splice(d, ["text"], 0, 0, "public"));
    const relayCopy = () => fixture.relay.repo.handles[shared.documentId];
    await waitFor(() => relayCopy()?.doc()?.text === "public", "the relay has the shared edit");
    expect(alice.connection.adapter.fastPathStats.sentChanges).toBe(relaySent + 1);
    expect(fixture.relay.repo.handles[secret.documentId]?.isReady() ?? false).toBe(false);
    expect(await fixture.relay.repo.storageSubsystem!.loadDoc(secret.documentId as DocumentId)).toBeNull();
  });

  it("still syncs a page without the feature, both ways, by the protocol alone", async () => {
    const alice = client("alice", "laptop");
    await connectedToRelay(alice);
    const windows = await serveWindows(alice);
    const source = alice.repo.create<Notes>({ text: "" });
    const old = openWindow(windows, "old-page", false);
    const copy = await open(old, source);
    expect(windows.adapter.isFastPeer(old.peerId)).toBe(false);
    copy.change((d) => A.splice(d, ["text"], 0, 0, "from the old page"));
    await waitFor(() => source.doc().text === "from the old page", "the old page's edit in the core");
    source.change((d) => A.splice(d, ["text"], 0, 0, "core: "));
    await waitFor(() => copy.doc().text === "core: from the old page", "the core's edit in the old page");
  });

  it("starts a fresh link when a window reconnects, and keeps carrying its keystrokes", async () => {
    const alice = client("alice", "laptop");
    await connectedToRelay(alice);
    const windows = await serveWindows(alice);
    const source = alice.repo.create<Notes>({ text: "" });
    const w = openWindow(windows, "window-a");
    const copy = await open(w, source);
    copy.change((d) => A.splice(d, ["text"], 0, 0, "a"));
    await waitFor(() => windows.adapter.statsFor(w.peerId)?.appliedFrames === 1, "the first keystroke on the link");

    for (const socket of windows.server.clients) socket.terminate();
    await waitFor(() => !windows.adapter.isFastPeer(w.peerId), "the link ended with the socket");
    await waitFor(() => windows.adapter.isFastPeer(w.peerId), "the window reconnected");
    // A fresh link knows no documents until the window syncs them again; the reconnect's own sync round does that.
    await waitFor(() => source.doc().text === copy.doc().text, "in sync after the reconnect");
    expect(windows.adapter.statsFor(w.peerId)?.appliedFrames).toBe(0);
    await waitFor(async () => {
      // Each attempt is a real keystroke, awaited until the core has it; the first ones may still travel by sync
      // while the window re-syncs (then the link's copy changes nothing and is not counted as applied).
      copy.change((d) => A.splice(d, ["text"], copy.doc().text.length, 0, "b"));
      await waitFor(() => source.doc().text === copy.doc().text, "the keystroke in the core");
      return (windows.adapter.statsFor(w.peerId)?.appliedFrames ?? 0) > 0;
    }, "a keystroke on the new link");
    await waitFor(() => source.doc().text === copy.doc().text, "core and window agree");
  });
});
