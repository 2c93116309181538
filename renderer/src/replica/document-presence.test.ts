import { afterEach, describe, expect, it, vi } from "vitest";
import { next as A } from "@automerge/automerge";
import { decode } from "cbor-x";
import { Repo, type DocHandle } from "@automerge/automerge-repo";
import { PRESENCE_PEER_TTL_MS } from "../../../shared/limits.js";
import { PRESENCE_HEARTBEAT_MS } from "../limits.js";
import type { Peer } from "../editor/presence-types.js";
import { decodePosition, DocumentPresence, encodePosition } from "./document-presence.js";

type Doc = { text: string };
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

describe("document presence", () => {
  it("falls back to the index for a cursor the receiver cannot resolve", () => {
    const other = A.from({ text: "abcdef" });
    const doc = A.from({ text: "xyz" });
    const foreign = encodePosition(other, 4);
    expect(foreign.cursor).not.toBeNull();
    expect(decodePosition(doc, foreign, 3)).toBe(3);
    expect(decodePosition(doc, { cursor: null, index: 2 }, 3)).toBe(2);
    expect(decodePosition(doc, encodePosition(doc, 3), 3)).toBe(3);
  });

  it("by default heartbeats every PRESENCE_HEARTBEAT_MS and shows a silent peer for exactly PRESENCE_PEER_TTL_MS", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    const repo = new Repo({});
    const handle = repo.create<Doc>({ text: "" });
    const sent: string[] = [];
    handle.on("ephemeral-message-outbound", ({ data }) => sent.push((decode(data) as { __presence: { type: string } }).__presence.type));
    let peers: Peer[] = [];
    const presence = new DocumentPresence({
      handle: handle as DocHandle<unknown>,
      user: { name: "Me", color: "#000" },
      text: () => ({ length: 0, version: 0 }),
      report: (_version, reported) => (peers = reported),
    });
    cleanups.push(() => {
      presence.stop();
      vi.useRealTimers();
      void repo.shutdown();
    });
    const flush = () => new Promise((resolve) => setImmediate(resolve));
    const heardFrom = (peerId: string) =>
      handle.emit("ephemeral-message", {
        handle,
        senderId: peerId,
        message: { __presence: { type: "snapshot", state: { user: { name: peerId, color: "#111" }, selection: null } } },
      } as never);
    expect(sent).toEqual(["snapshot"]);
    vi.advanceTimersByTime(PRESENCE_HEARTBEAT_MS - 1);
    expect(sent).toEqual(["snapshot"]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(["snapshot", "heartbeat"]);

    // Peers are pruned on heartbeat ticks (k * PRESENCE_HEARTBEAT_MS from start); a peer last heard exactly
    // PRESENCE_PEER_TTL_MS before a tick stays, one heard a millisecond earlier goes.
    vi.advanceTimersByTime(PRESENCE_HEARTBEAT_MS - 1);
    heardFrom("early");
    vi.advanceTimersByTime(1);
    heardFrom("onTime");
    await flush();
    expect(peers.map((p) => p.name).sort()).toEqual(["early", "onTime"]);
    vi.advanceTimersByTime(PRESENCE_PEER_TTL_MS);
    await flush();
    expect(peers.map((p) => p.name)).toEqual(["onTime"]);
  });
});
