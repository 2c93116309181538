/**
 * WindowFarewell over real Repos joined by MessageChannels: a core with two windows and a teammate-side peer (the
 * relay's place). The goodbyes must carry the window's name, reach only peers allowed the document, and never go back
 * to the window they speak for.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { cbor, generateAutomergeUrl, parseAutomergeUrl, Repo, type EphemeralMessage, type Message, type PeerId } from "@automerge/automerge-repo";
import { MessageChannelNetworkAdapter } from "@automerge/automerge-repo-network-messagechannel";
import { MAX_WINDOW_PRESENCE_DOCUMENTS } from "../util/limits.js";
import { WindowFarewell } from "./window-farewell.js";
import { waitFor } from "../../shared/wait-for.js";

const repos: Repo[] = [];
afterEach(async () => {
  for (const repo of repos.splice(0)) await repo.shutdown().catch(() => undefined);
});

const open = { announce: async () => true, access: async () => true };

/** A repo joined to `core` by a MessageChannel; records the ephemeral messages it receives. */
function joined(core: Repo, peerId: string): { repo: Repo; received: EphemeralMessage[] } {
  const { port1, port2 } = new MessageChannel();
  core.networkSubsystem.addNetworkAdapter(new MessageChannelNetworkAdapter(port1));
  const repo = new Repo({ network: [new MessageChannelNetworkAdapter(port2)], peerId: peerId as PeerId, shareConfig: open });
  repos.push(repo);
  const received: EphemeralMessage[] = [];
  repo.networkSubsystem.on("message", (message: Message) => {
    if (message.type === "ephemeral") received.push(message as EphemeralMessage);
  });
  return { repo, received };
}

describe("WindowFarewell", () => {
  it("says goodbye in each window's name to the peers allowed the document, and to no one else", async () => {
    const core = new Repo({ network: [], peerId: "core" as PeerId, shareConfig: open });
    repos.push(core);
    const w1 = joined(core, "window-1");
    const w2 = joined(core, "window-2");
    const teammate = joined(core, "relay");
    await waitFor(() => core.peers.length === 3, "core.peers.length === 3");
    const windows = new Set<PeerId>(["window-1", "window-2"] as PeerId[]);
    const sharedDoc = "2F4K4XonedAa7xwEWSzfxdG6cHA4";
    const privateDoc = "41qqQBmz2RkwQaHXkLWbAmrBqN6r";
    const mayShare = async (peer: PeerId, documentId: string) => windows.has(peer) || documentId === sharedDoc;
    const farewell = new WindowFarewell(core, () => windows, mayShare);

    await farewell.sayFor(privateDoc);
    await farewell.sayFor(sharedDoc);
    await waitFor(() => teammate.received.length >= 2, "teammate.received.length >= 2");

    // The teammate's side heard both windows leave the shared document, and nothing of the private one.
    expect(teammate.received.map((m) => [m.senderId, m.documentId]).sort()).toEqual([
      ["window-1", sharedDoc],
      ["window-2", sharedDoc],
    ]);
    expect(cbor.decode(teammate.received[0].data)).toEqual({ __presence: { type: "goodbye" } });
    // Each window heard the other leave (both documents are theirs to see), never itself.
    await waitFor(() => w1.received.length >= 2 && w2.received.length >= 2, "w1.received.length >= 2 && w2.received.length >= 2");
    expect(w1.received.every((m) => m.senderId === "window-2")).toBe(true);
    expect(w2.received.every((m) => m.senderId === "window-1")).toBe(true);
    expect(new Set(w1.received.map((m) => m.documentId))).toEqual(new Set([privateDoc, sharedDoc]));
  });

  it("sends nothing when no window is connected", async () => {
    const core = new Repo({ network: [], peerId: "core" as PeerId, shareConfig: open });
    repos.push(core);
    joined(core, "relay");
    await waitFor(() => core.peers.length === 1, "core.peers.length === 1");
    let asked = 0;
    const farewell = new WindowFarewell(core, () => [], async () => ++asked > 0);
    await farewell.sayFor("2F4K4XonedAa7xwEWSzfxdG6cHA4");
    // It returned before asking about any peer, so it cannot have sent anything.
    expect(asked).toBe(0);
  });

  it("says goodbye for a window whose link went, on the documents it showed presence on, the last MAX_WINDOW_PRESENCE_DOCUMENTS", async () => {
    const core = new Repo({ network: [], peerId: "core" as PeerId, shareConfig: open });
    repos.push(core);
    const teammate = joined(core, "relay");
    await waitFor(() => core.peers.length === 1, "core.peers.length === 1");
    const farewell = new WindowFarewell(core, () => [], async () => true);
    const ids: string[] = Array.from({ length: MAX_WINDOW_PRESENCE_DOCUMENTS + 1 }, () => parseAutomergeUrl(generateAutomergeUrl()).documentId);
    for (const id of ids) farewell.noteWindowPresence("window-1" as PeerId, id);
    // Seen again: the first document is now the most recent, so the second is the one forgotten.
    farewell.noteWindowPresence("window-1" as PeerId, ids[0]!);
    await farewell.windowLeft("window-1" as PeerId);
    await waitFor(() => teammate.received.length >= MAX_WINDOW_PRESENCE_DOCUMENTS, "teammate.received.length >= MAX_WINDOW_PRESENCE_DOCUMENTS");
    expect(teammate.received.every((m) => m.senderId === "window-1")).toBe(true);
    expect(cbor.decode(teammate.received[0].data)).toEqual({ __presence: { type: "goodbye" } });
    const said = new Set(teammate.received.map((m) => m.documentId as string));
    expect(said.size).toBe(MAX_WINDOW_PRESENCE_DOCUMENTS);
    expect(said.has(ids[0]!)).toBe(true);
    expect(said.has(ids[1]!)).toBe(false);
    // Said once: the window is forgotten, so a second call sends nothing (sends happen within the call).
    const send = vi.spyOn(core.networkSubsystem, "send");
    await farewell.windowLeft("window-1" as PeerId);
    expect(send).not.toHaveBeenCalled();
  });
});
