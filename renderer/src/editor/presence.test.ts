// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { next as A } from "@automerge/automerge";
import { decode } from "cbor-x";
import { EditorSelection, EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { Repo, type DocHandle } from "@automerge/automerge-repo";
import { MessageChannelNetworkAdapter } from "@automerge/automerge-repo-network-messagechannel";
import { PRESENCE_HEARTBEAT_MS, PRESENCE_PEER_TTL_MS } from "../../../shared/limits.js";
import "../test/jsdom-layout.js";
import { textSync } from "./text-sync.js";
import { linkedRepos } from "../test/linked-repos.js";
import { waitFor } from "../test/wait-for.js";
import { bindPresence, decodePosition, encodePosition, OWN_OTHER_WINDOW_NAME, type Peer } from "./presence.js";
import { remoteCaretsField } from "./remote-carets.js";

type Doc = { text: string };
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function editorFor(handle: DocHandle<Doc>, name: string, color: string, peers: { list: Peer[] }, device?: string) {
  const binding = bindPresence({ handle: handle as DocHandle<unknown>, user: { name, color, device }, onPeers: (p) => (peers.list = p) });
  const view = new EditorView({
    state: EditorState.create({
      doc: handle.doc().text,
      extensions: [textSync(handle as DocHandle<unknown>), binding.extension],
    }),
    parent: document.body,
  });
  cleanups.push(() => view.destroy());
  cleanups.push(() => binding.stop());
  return { view, binding };
}

describe("presence", () => {
  it("shows who is here and where their selection is, and follows it through edits", async () => {
    const { core, replica, close } = linkedRepos();
    cleanups.push(close);
    const handleA = core.create<Doc>({ text: "hello world" });
    const handleB = await replica.find<Doc>(handleA.url);
    const peersA = { list: [] as Peer[] };
    const peersB = { list: [] as Peer[] };
    const a = editorFor(handleA, "Ada", "#d9480f", peersA);
    const b = editorFor(handleB, "Bo", "#1c7ed6", peersB);

    a.view.dispatch({ selection: EditorSelection.range(6, 11) });
    await waitFor(() => b.view.state.field(remoteCaretsField).some((c) => c.name === "Ada" && c.head === 11), 10_000, "Ada's selection at B");
    expect(peersB.list.map((p) => p.name)).toEqual(["Ada"]);
    await waitFor(() => peersA.list.some((p) => p.name === "Bo"), 10_000, "Bo at A");
    const caret = b.view.state.field(remoteCaretsField).find((c) => c.name === "Ada")!;
    expect([caret.anchor, caret.head, caret.color]).toEqual([6, 11, "#d9480f"]);
    expect(b.view.dom.querySelector(".cm-remote-caret-label")?.textContent).toBe("Ada");

    // Text inserted before Ada's selection (by Bo) moves her caret with the words it marks.
    b.view.dispatch({ changes: { from: 0, insert: ">> " }, userEvent: "input.type" });
    await waitFor(() => handleA.doc().text === ">> hello world");
    await waitFor(() => b.view.state.field(remoteCaretsField).some((c) => c.name === "Ada" && c.anchor === 9 && c.head === 14));

    a.binding.stop();
    await waitFor(() => peersB.list.length === 0, 10_000, "Ada to leave");
    expect(b.view.state.field(remoteCaretsField)).toEqual([]);
  });

  it("names a window of the same device 'You (another window)', not as a teammate", async () => {
    const { core, replica, close } = linkedRepos();
    cleanups.push(close);
    const handleA = core.create<Doc>({ text: "hello" });
    const handleB = await replica.find<Doc>(handleA.url);
    const peersA = { list: [] as Peer[] };
    const peersB = { list: [] as Peer[] };
    const a = editorFor(handleA, "Ada", "#d9480f", peersA, "device-1");
    editorFor(handleB, "Ada", "#d9480f", peersB, "device-1");
    a.view.dispatch({ selection: EditorSelection.cursor(2) });
    await waitFor(() => peersB.list.length === 1 && peersA.list.length === 1, 10_000, "each window sees the other");
    expect(peersB.list[0].name).toBe(OWN_OTHER_WINDOW_NAME);
    expect(peersA.list[0].name).toBe(OWN_OTHER_WINDOW_NAME);
  });

  it("says goodbye when the page goes away (tab closed or reloaded), not only when the editor closes", async () => {
    const { core, replica, close } = linkedRepos();
    cleanups.push(close);
    const handleA = core.create<Doc>({ text: "hello" });
    const handleB = await replica.find<Doc>(handleA.url);
    // The other side listens to the wire itself (a Presence in this same jsdom window would stop on pagehide too).
    const heard: unknown[] = [];
    handleA.on("ephemeral-message", ({ message }) => heard.push((message as { __presence?: { type?: string } }).__presence?.type));
    const peersB = { list: [] as Peer[] };
    editorFor(handleB, "Bo", "#1c7ed6", peersB);
    await waitFor(() => heard.includes("snapshot"), 10_000, "Bo's presence at A");
    expect(heard).not.toContain("goodbye");
    window.dispatchEvent(new Event("pagehide"));
    await waitFor(() => heard.includes("goodbye"), 10_000, "Bo's goodbye on pagehide");
  });

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
    const peers = { list: [] as Peer[] };
    const binding = bindPresence({ handle: handle as DocHandle<unknown>, user: { name: "Me", color: "#000" }, onPeers: (p) => (peers.list = p) });
    cleanups.push(() => {
      binding.stop();
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
    expect(peers.list.map((p) => p.name).sort()).toEqual(["early", "onTime"]);
    vi.advanceTimersByTime(PRESENCE_PEER_TTL_MS);
    await flush();
    expect(peers.list.map((p) => p.name)).toEqual(["onTime"]);
  });
});

describe("presence while the relay link is down", () => {
  it("shows no teammate while the team is unreachable, keeps this device's windows, and shows the teammate again at once", async () => {
    // A core with two windows (Bo's two) and a teammate (Ada) on the core's side of the link.
    const one = new MessageChannel();
    const two = new MessageChannel();
    const share = { sharePolicy: async () => true };
    const core = new Repo({ network: [new MessageChannelNetworkAdapter(one.port1), new MessageChannelNetworkAdapter(two.port1)], ...share });
    const windowB = new Repo({ network: [new MessageChannelNetworkAdapter(one.port2)], ...share });
    const windowC = new Repo({ network: [new MessageChannelNetworkAdapter(two.port2)], ...share });
    cleanups.push(() => {
      for (const repo of [core, windowB, windowC]) void repo.shutdown();
      for (const port of [one.port1, one.port2, two.port1, two.port2]) port.close();
    });
    const handleA = core.create<Doc>({ text: "hello" });
    const handleB = await windowB.find<Doc>(handleA.url);
    const handleC = await windowC.find<Doc>(handleA.url);
    const peersB = { list: [] as Peer[] };
    editorFor(handleA, "Ada", "#d9480f", { list: [] }, "device-ada");
    const b = editorFor(handleB, "Bo", "#1c7ed6", peersB, "device-bo");
    editorFor(handleC, "Bo", "#1c7ed6", { list: [] }, "device-bo");
    await waitFor(() => peersB.list.length === 2, 10_000, "Ada and Bo's other window at B");

    b.binding.setTeamReachable(false);
    await waitFor(() => peersB.list.length === 1, 10_000, "the teammate hidden");
    expect(peersB.list[0].name).toBe(OWN_OTHER_WINDOW_NAME);
    expect(b.view.state.field(remoteCaretsField).every((c) => c.name !== "Ada")).toBe(true);

    b.binding.setTeamReachable(true);
    await waitFor(() => peersB.list.some((p) => p.name === "Ada"), 10_000, "Ada shown again");
  });
});
