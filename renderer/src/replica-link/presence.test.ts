// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { Repo } from "@automerge/automerge-repo";
import { MessageChannelNetworkAdapter } from "@automerge/automerge-repo-network-messagechannel";
import { EditorSelection } from "@codemirror/state";
import "../test/jsdom-layout.js";
import { linkedRepos } from "../test/linked-repos.js";
import { OWN_OTHER_WINDOW_NAME } from "../editor/presence-types.js";
import { remoteCaretsField } from "../editor/remote-carets.js";
import { openTestWindow, type TestWindow } from "./test-window.js";
import { waitFor } from "../../../shared/wait-for.js";

type Doc = { text: string };
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});
async function windowOn(repo: Repo, url: string, name: string, color: string, device?: string): Promise<TestWindow> {
  const opened = await openTestWindow(repo, url, { name, color, device });
  cleanups.push(() => opened.close());
  return opened;
}

/** A core (Ada's side) and a window of Bo's linked to it: the core's repo stands in for a teammate's window here. */
async function twoWindows(text: string, devices: [string?, string?] = []) {
  const { core, replica, close } = linkedRepos();
  cleanups.push(close);
  const seed = core.create<Doc>({ text });
  // Ada's window runs on its own Repo linked to the core, as Bo's does: both go through a replica host.
  const adaChannel = new MessageChannel();
  const adaRepo = new Repo({ network: [new MessageChannelNetworkAdapter(adaChannel.port2)], sharePolicy: async () => true });
  core.networkSubsystem.addNetworkAdapter(new MessageChannelNetworkAdapter(adaChannel.port1));
  cleanups.push(() => {
    void adaRepo.shutdown();
    adaChannel.port1.close();
    adaChannel.port2.close();
  });
  const a = await windowOn(adaRepo, seed.url, "Ada", "#d9480f", devices[0]);
  const b = await windowOn(replica, seed.url, "Bo", "#1c7ed6", devices[1]);
  return { a, b, seed };
}

describe("presence through the replica host", () => {
  it("shows who is here and where their selection is, and follows it through edits", async () => {
    const { a, b } = await twoWindows("hello world");
    a.view.dispatch({ selection: EditorSelection.range(6, 11) });
    await waitFor(() => b.view.state.field(remoteCaretsField).some((c) => c.name === "Ada" && c.head === 11), "Ada's selection at B", 10_000);
    expect(b.peers.map((p) => p.name)).toEqual(["Ada"]);
    await waitFor(() => a.peers.some((p) => p.name === "Bo"), "Bo at A", 10_000);
    const caret = b.view.state.field(remoteCaretsField).find((c) => c.name === "Ada")!;
    expect([caret.anchor, caret.head, caret.color]).toEqual([6, 11, "#d9480f"]);
    expect(b.view.dom.querySelector(".cm-remote-caret-label")?.textContent).toBe("Ada");

    // Text inserted before Ada's selection (by Bo) moves her caret with the words it marks.
    b.view.dispatch({ changes: { from: 0, insert: ">> " }, userEvent: "input.type" });
    await waitFor(() => a.view.state.doc.toString() === ">> hello world", "Bo's edit at A", 10_000);
    await waitFor(() => b.view.state.field(remoteCaretsField).some((c) => c.name === "Ada" && c.anchor === 9 && c.head === 14), "Ada's caret moved", 10_000);

    a.close();
    await waitFor(() => b.peers.length === 0, "Ada to leave", 10_000);
    expect(b.view.state.field(remoteCaretsField)).toEqual([]);
  });

  it("names a window of the same device 'You (another window)', not as a teammate", async () => {
    const { a, b } = await twoWindows("hello", ["device-1", "device-1"]);
    a.view.dispatch({ selection: EditorSelection.cursor(2) });
    await waitFor(() => b.peers.length === 1 && a.peers.length === 1, "each window sees the other", 10_000);
    expect(b.peers[0].name).toBe(OWN_OTHER_WINDOW_NAME);
    expect(a.peers[0].name).toBe(OWN_OTHER_WINDOW_NAME);
  });

  it("says goodbye when the page goes away (tab closed or reloaded), not only when the editor closes", async () => {
    const { core, replica, close } = linkedRepos();
    cleanups.push(close);
    const seed = core.create<Doc>({ text: "hello" });
    const heard: unknown[] = [];
    seed.on("ephemeral-message", ({ message }) => heard.push((message as { __presence?: { type?: string } }).__presence?.type));
    const b = await windowOn(replica, seed.url, "Bo", "#1c7ed6");
    await waitFor(() => heard.includes("snapshot"), "Bo's presence at the core", 10_000);
    expect(heard).not.toContain("goodbye");
    b.client.flush();
    await waitFor(() => heard.includes("goodbye"), "Bo's goodbye when the page goes", 10_000);
  });
});

describe("presence while the relay link is down", () => {
  it("shows no teammate while the team is unreachable, keeps this device's windows, and shows the teammate again at once", async () => {
    const { core, replica, close } = linkedRepos();
    cleanups.push(close);
    const seed = core.create<Doc>({ text: "hello" });
    const other = new MessageChannel();
    const otherRepo = new Repo({ network: [new MessageChannelNetworkAdapter(other.port2)], sharePolicy: async () => true });
    core.networkSubsystem.addNetworkAdapter(new MessageChannelNetworkAdapter(other.port1));
    const ada = new MessageChannel();
    const adaRepo = new Repo({ network: [new MessageChannelNetworkAdapter(ada.port2)], sharePolicy: async () => true });
    core.networkSubsystem.addNetworkAdapter(new MessageChannelNetworkAdapter(ada.port1));
    cleanups.push(() => {
      void otherRepo.shutdown();
      void adaRepo.shutdown();
      for (const port of [other.port1, other.port2, ada.port1, ada.port2]) port.close();
    });
    await windowOn(adaRepo, seed.url, "Ada", "#d9480f", "device-ada");
    const b = await windowOn(replica, seed.url, "Bo", "#1c7ed6", "device-bo");
    await windowOn(otherRepo, seed.url, "Bo", "#1c7ed6", "device-bo");
    await waitFor(() => b.peers.length === 2, "Ada and Bo's other window at B", 10_000);

    b.client.setTeamReachable(false);
    await waitFor(() => b.peers.length === 1, "the teammate hidden", 10_000);
    expect(b.peers[0].name).toBe(OWN_OTHER_WINDOW_NAME);
    expect(b.view.state.field(remoteCaretsField).every((c) => c.name !== "Ada")).toBe(true);

    b.client.setTeamReachable(true);
    await waitFor(() => b.peers.some((p) => p.name === "Ada"), "Ada shown again", 10_000);
  });
});
