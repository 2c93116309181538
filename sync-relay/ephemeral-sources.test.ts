/**
 * automerge-repo's NetworkSubsystem drops a replayed ephemeral message (presence) by remembering the last count of each
 * source (`${senderId}:${sessionId}`). Stock 2.5.6 remembered every source it ever heard, so the long-running relay
 * kept one entry per client session that ever reconnected, for good (resource audit). Patched
 * (patches/@automerge+automerge-repo+2.5.6.patch) to keep at most EPHEMERAL_SOURCES_KEPT, least recently updated
 * dropped first. The private map cannot be read, so these tests watch what it decides: a forgotten source's old count
 * is accepted again, a remembered one's is not.
 */
import { NetworkAdapter, Repo, type EphemeralMessage, type Message, type NetworkAdapterInterface, type PeerId, type PeerMetadata, type RepoMessage } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";

type Subsystem = Repo["networkSubsystem"];
type SubsystemClass = (new (adapters: NetworkAdapterInterface[], peerId: PeerId, peerMetadata: Promise<PeerMetadata>) => Subsystem) & {
  readonly EPHEMERAL_SOURCES_KEPT: number;
};

/** Hands the subsystem whatever the test delivers; sends nowhere. */
class FakeAdapter extends NetworkAdapter {
  isReady(): boolean {
    return true;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  connect(peerId: PeerId): void {
    this.peerId = peerId;
  }
  send(_message: Message): void {}
  disconnect(): void {}
  deliver(message: EphemeralMessage): void {
    this.emit("message", message);
  }
}

const repos: Repo[] = [];
afterEach(async () => {
  while (repos.length) await repos.pop()!.shutdown();
});

/**
 * A NetworkSubsystem of its own (the class is not exported, so it is reached through a Repo's), with no Repo
 * listening: a Repo would act on every presence message, which is not what is measured here.
 */
function subsystem(): { adapter: FakeAdapter; Subsystem: SubsystemClass; passed: (source: string) => number[] } {
  const repo = new Repo({ network: [] });
  repos.push(repo);
  const Subsystem = repo.networkSubsystem.constructor as SubsystemClass;
  const adapter = new FakeAdapter();
  const network = new Subsystem([adapter], "relay" as PeerId, Promise.resolve({}));
  const heard: RepoMessage[] = [];
  network.on("message", (message) => heard.push(message));
  const passed = (source: string) =>
    heard.filter((m) => m.type === "ephemeral" && `${m.senderId}:${m.sessionId}` === source).map((m) => (m as EphemeralMessage).count);
  return { adapter, Subsystem, passed };
}

function presence(sender: string, session: string, count: number): EphemeralMessage {
  return {
    type: "ephemeral",
    senderId: sender as PeerId,
    targetId: "relay" as PeerId,
    sessionId: session as EphemeralMessage["sessionId"],
    documentId: "doc" as EphemeralMessage["documentId"],
    count,
    data: new Uint8Array([1]),
  };
}

describe("ephemeral sources remembered by the NetworkSubsystem", () => {
  it("forgets the least recently updated source once EPHEMERAL_SOURCES_KEPT others spoke since", () => {
    const { adapter, Subsystem, passed } = subsystem();
    const kept = Subsystem.EPHEMERAL_SOURCES_KEPT;
    expect(kept).toBeGreaterThan(0);

    adapter.deliver(presence("old", "s", 5));
    adapter.deliver(presence("old", "s", 3));
    // Remembered: a lower count is a replay, dropped (stock behaviour, kept).
    expect(passed("old:s")).toEqual([5]);

    // One short of the bound: "old" is still among the remembered.
    for (let i = 0; i < kept - 1; i++) adapter.deliver(presence(`client-${i}`, "s", 1));
    adapter.deliver(presence("old", "s", 3));
    expect(passed("old:s")).toEqual([5]);

    // One more source passes the bound: "old", the least recently updated, is forgotten, so its old count is new again.
    adapter.deliver(presence("one-more", "s", 1));
    adapter.deliver(presence("old", "s", 3));
    expect(passed("old:s")).toEqual([5, 3]);
  });

  it("keeps a source that keeps speaking while many more sessions come and go", () => {
    const { adapter, Subsystem, passed } = subsystem();
    const kept = Subsystem.EPHEMERAL_SOURCES_KEPT;
    let count = 1;
    adapter.deliver(presence("steady", "s", count));
    // Its first entry is older than every other source's, but each update makes it the newest again: a replay of its
    // first count, just before each update, is still known for one.
    for (let i = 0; i < kept * 3; i++) {
      adapter.deliver(presence(`session-${i}`, `s${i}`, 1));
      if (i % Math.floor(kept / 2) === 0) {
        adapter.deliver(presence("steady", "s", 1));
        adapter.deliver(presence("steady", "s", ++count));
      }
    }
    expect(passed("steady:s")).toEqual(Array.from({ length: count }, (_, i) => i + 1));
  });
});
