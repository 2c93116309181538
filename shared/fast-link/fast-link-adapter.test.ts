/**
 * The window fast link over a real MessageChannel with automerge-repo's MessageChannelNetworkAdapter on both ends (the
 * Electron wiring): a window's edit reaches the core, and the core's edit the window, as a batch before any sync
 * message carried it, with the protocol paced to FAST_PATH_SYNC_INTERVAL_MS; no echo to the origin window; a page or
 * a core without the feature still syncs; bad bytes change nothing. The WebSocket wiring, with a relay, is tested in
 * main/sync/window-link.test.ts.
 */
import { next as A } from "@automerge/automerge";
import { Repo, type DocHandle, type Message, type NetworkAdapterInterface, type PeerId } from "@automerge/automerge-repo";
import { MessageChannelNetworkAdapter } from "@automerge/automerge-repo-network-messagechannel";
import { afterEach, describe, expect, it } from "vitest";
import { FAST_PATH_SYNC_INTERVAL_MS } from "../limits.js";
import { syncPacing } from "../sync-pacing.js";
import { checkedChangeHashes } from "./change-hash.js";
import { FastLinkAdapter } from "./fast-link-adapter.js";
import { FAST_LINK_MESSAGE_TYPE } from "./messages.js";
import { countWhenSeen } from "./test-helpers.js";
import { waitFor } from "../wait-for.js";

type Notes = { text: string };

const CORE = "core" as PeerId;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The app core's Repo: it announces nothing to windows and lets them sync every document (main/core/app-core.ts). */
function startCore(): Repo {
  const repo = new Repo({ network: [], peerId: CORE, shareConfig: { announce: async () => false, access: async () => true } });
  cleanups.push(() => repo.shutdown().catch(() => undefined));
  return repo;
}

interface Window {
  repo: Repo;
  peerId: PeerId;
  /** The core's adapter for this window (a FastLinkAdapter unless the core is old). */
  coreSide: NetworkAdapterInterface;
  windowSide: NetworkAdapterInterface;
  /** Sync messages carrying changes, by direction, as the inner adapters received them. */
  syncedChanges: { toCore: number; toWindow: number };
  port: MessagePort;
}

/** A window whose replica syncs with `core` over a fresh MessageChannel (createReplica's shareConfig). */
function connectWindow(core: Repo, name: string, { coreFast = true, windowFast = true } = {}): Window {
  const { port1, port2 } = new MessageChannel();
  const coreInner = new MessageChannelNetworkAdapter(port1);
  const windowInner = new MessageChannelNetworkAdapter(port2);
  const syncedChanges = { toCore: 0, toWindow: 0 };
  const count = (key: keyof typeof syncedChanges) => (message: Message) => {
    if ((message.type === "sync" || message.type === "request") && message.data !== undefined && A.decodeSyncMessage(message.data).changes.length > 0) syncedChanges[key]++;
  };
  coreInner.on("message", count("toCore"));
  windowInner.on("message", count("toWindow"));

  const coreSide = coreFast ? new FastLinkAdapter(coreInner, { side: "core", hashes: checkedChangeHashes }) : coreInner;
  if (coreSide instanceof FastLinkAdapter) coreSide.attachRepo(core);
  core.networkSubsystem.addNetworkAdapter(coreSide);

  const peerId = name as PeerId;
  const windowSide = windowFast ? new FastLinkAdapter(windowInner, { side: "window", hashes: checkedChangeHashes }) : windowInner;
  const repo: Repo = new Repo({
    network: [windowSide],
    peerId,
    shareConfig: {
      announce: async () => true,
      access: async (_peer, documentId) => documentId !== undefined && repo.handles[documentId] !== undefined,
    },
  });
  if (windowSide instanceof FastLinkAdapter) windowSide.attachRepo(repo);
  cleanups.push(async () => {
    await repo.shutdown().catch(() => undefined);
    port1.close();
    port2.close();
  });
  return { repo, peerId, coreSide, windowSide, syncedChanges, port: port2 };
}

const fast = (adapter: NetworkAdapterInterface) => adapter as FastLinkAdapter;

async function open(window: Window, source: DocHandle<Notes>): Promise<DocHandle<Notes>> {
  const handle = await window.repo.find<Notes>(source.url);
  await waitFor(() => handle.doc().text === source.doc().text, "the window has the document");
  return handle;
}


describe("window fast link over a MessageChannel", () => {
  it("carries a window's edit to the core, and the core's to the window, before any sync message carries it", async () => {
    const core = startCore();
    const source = core.create<Notes>({ text: "hello" });
    const w = connectWindow(core, "window-1");
    const copy = await open(w, source);
    expect([fast(w.coreSide).isFastPeer(w.peerId), fast(w.windowSide).isFastPeer(CORE)]).toEqual([true, true]);
    expect(syncPacing().intervalFor(CORE, w.peerId)).toBe(FAST_PATH_SYNC_INTERVAL_MS);
    expect(syncPacing().intervalFor(w.peerId, CORE)).toBe(FAST_PATH_SYNC_INTERVAL_MS);

    const toCoreBefore = w.syncedChanges.toCore;
    const seenInCore = countWhenSeen(source, "!", () => w.syncedChanges.toCore);
    copy.change((d) => A.splice(d, ["text"], 5, 0, "!"));
    expect(await seenInCore).toBe(toCoreBefore);
    expect(fast(w.coreSide).statsFor(w.peerId)?.appliedFrames).toBe(1);

    const toWindowBefore = w.syncedChanges.toWindow;
    const seenInWindow = countWhenSeen(copy, "?", () => w.syncedChanges.toWindow);
    source.change((d) => A.splice(d, ["text"], 0, 0, "?"));
    expect(await seenInWindow).toBe(toWindowBefore);
    expect(fast(w.windowSide).statsFor(CORE)?.appliedFrames).toBe(1);
    expect(copy.doc().text).toBe("?hello!");
  });

  it("passes a window's edit on to the other windows, never back to its origin", async () => {
    const core = startCore();
    const source = core.create<Notes>({ text: "" });
    const a = connectWindow(core, "window-a");
    const b = connectWindow(core, "window-b");
    const [copyA, copyB] = [await open(a, source), await open(b, source)];
    const seenInB = countWhenSeen(copyB, "typed in a", () => b.syncedChanges.toWindow);
    const syncedToB = b.syncedChanges.toWindow;
    copyA.change((d) => A.splice(d, ["text"], 0, 0, "typed in a"));
    expect(await seenInB).toBe(syncedToB);
    expect(fast(b.coreSide).statsFor(b.peerId)?.sentChanges).toBe(1);
    // A marker from the core rides the same link to a after any echo would have (one port keeps order): once a has
    // it by the link, a's link has carried that marker and nothing else.
    const syncedToA = a.syncedChanges.toWindow;
    const markerInA = countWhenSeen(copyA, "|", () => a.syncedChanges.toWindow);
    source.change((d) => A.splice(d, ["text"], d.text.length, 0, "|"));
    expect(await markerInA).toBe(syncedToA);
    expect(fast(a.coreSide).statsFor(a.peerId)?.sentChanges).toBe(1);
    expect(fast(a.windowSide).statsFor(CORE)?.appliedFrames).toBe(1);
    expect(copyA.doc().text).toBe("typed in a|");
  });

  it("carries only documents the window itself syncs", async () => {
    const core = startCore();
    const opened = core.create<Notes>({ text: "" });
    const unopened = core.create<Notes>({ text: "" });
    const w = connectWindow(core, "window-1");
    const copy = await open(w, opened);
    for (let i = 0; i < 3; i++) unopened.change((d) => A.splice(d, ["text"], 0, 0, `${i}`));
    // Positive control, sent after them on the same link: the opened document's edit rides it. Once the window has
    // it by the link, the link has carried that one change and none of the unopened document's.
    const synced = w.syncedChanges.toWindow;
    const seen = countWhenSeen(copy, "x", () => w.syncedChanges.toWindow);
    opened.change((d) => A.splice(d, ["text"], 0, 0, "x"));
    expect(await seen).toBe(synced);
    expect(fast(w.coreSide).statsFor(w.peerId)?.sentChanges).toBe(1);
    expect(fast(w.windowSide).statsFor(CORE)?.appliedFrames).toBe(1);
    expect(w.repo.handles[unopened.documentId]).toBeUndefined();
  });

  it("still syncs a page without the feature with a new core, and a new page with an old core, by the protocol alone", async () => {
    for (const flags of [{ windowFast: false }, { coreFast: false }]) {
      const core = startCore();
      const source = core.create<Notes>({ text: "" });
      const w = connectWindow(core, "window-1", flags);
      const copy = await open(w, source);
      const fastEnd = flags.windowFast === false ? fast(w.coreSide) : fast(w.windowSide);
      expect(fastEnd.isFastPeer(flags.windowFast === false ? w.peerId : CORE)).toBe(false);
      expect(syncPacing().intervalFor(CORE, w.peerId)).toBeUndefined();
      copy.change((d) => A.splice(d, ["text"], 0, 0, "from the window"));
      await waitFor(() => source.doc().text === "from the window", "the window's edit in the core");
      source.change((d) => A.splice(d, ["text"], 0, 0, "core: "));
      await waitFor(() => copy.doc().text === "core: from the window", "the core's edit in the window");
    }
  });

  it("ignores forged or malformed batches, and the link keeps working", async () => {
    const core = startCore();
    const source = core.create<Notes>({ text: "safe" });
    const w = connectWindow(core, "window-1");
    const copy = await open(w, source);
    const edit = A.getChanges(copy.doc(), A.change(A.clone(copy.doc()), (d) => A.splice(d, ["text"], 0, 0, "x")));
    const flipped = Uint8Array.from(edit[0]);
    flipped[flipped.length - 1] ^= 1;
    const forged = { type: FAST_LINK_MESSAGE_TYPE, senderId: w.peerId, targetId: CORE, documentId: source.documentId };
    for (const changes of [[flipped], [Uint8Array.of(1, 2, 3)], "not a list", [], [42]]) w.port.postMessage({ ...forged, changes });
    // From a peer the core has no link with: dropped even though the bytes are good.
    w.port.postMessage({ ...forged, senderId: "someone-else", changes: edit });
    copy.change((d) => A.splice(d, ["text"], 4, 0, "!"));
    await waitFor(() => source.doc().text === "safe!", "the real edit");
    expect(fast(w.coreSide).statsFor(w.peerId)?.appliedFrames).toBe(1);
  });

  it("ends the link, and the pace, when the window goes away", async () => {
    const core = startCore();
    const source = core.create<Notes>({ text: "" });
    const w = connectWindow(core, "window-1");
    await open(w, source);
    fast(w.windowSide).inner.disconnect();
    await waitFor(() => !fast(w.coreSide).isFastPeer(w.peerId), "the core ended the link");
    expect(fast(w.windowSide).isFastPeer(CORE)).toBe(false);
    expect(syncPacing().intervalFor(CORE, w.peerId)).toBeUndefined();
    expect(syncPacing().intervalFor(w.peerId, CORE)).toBeUndefined();
  });
});
