import { EventEmitter } from "node:events";
import { MessageChannel, type MessagePort as NodeMessagePort } from "node:worker_threads";
import { Repo, type DocHandle, type NetworkAdapterInterface } from "@automerge/automerge-repo";
import { MessageChannelNetworkAdapter } from "@automerge/automerge-repo-network-messagechannel";
import { afterEach, describe, expect, it } from "vitest";
import { domPortFromMain, ReplicaPortBroker } from "./replica-port.js";
import { waitFor } from "../../shared/wait-for.js";

/**
 * Behaves like Electron's MessagePortMain where it matters: an EventEmitter emitting { data, ports } events, whose
 * postMessage refuses any transferable that is not a port (Electron: "Port at index 0 is not a valid port").
 * Underneath is a real structured-clone channel (node:worker_threads).
 */
class FakeMessagePortMain extends EventEmitter {
  constructor(readonly inner: NodeMessagePort) {
    super();
    inner.on("message", (data: unknown) => this.emit("message", { data, ports: [] }));
    inner.on("close", () => this.emit("close"));
  }
  postMessage(message: unknown, transfer?: unknown[]): void {
    if (transfer?.some((t) => !(t instanceof FakeMessagePortMain))) throw new TypeError("Port at index 0 is not a valid port");
    this.inner.postMessage(message);
  }
  start(): void {
    this.inner.start();
  }
  close(): void {
    this.inner.close();
  }
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe("domPortFromMain", () => {
  it("round-trips Uint8Array payloads between the adapter on a main-style port and one on a DOM port", async () => {
    const channel = new MessageChannel();
    const mainSide = new MessageChannelNetworkAdapter(domPortFromMain(new FakeMessagePortMain(channel.port1)));
    const rendererSide = new MessageChannelNetworkAdapter(channel.port2 as unknown as MessagePort);
    const fromRenderer: unknown[] = [];
    const fromMain: unknown[] = [];
    mainSide.on("message", (m) => fromRenderer.push(m));
    rendererSide.on("message", (m) => fromMain.push(m));
    mainSide.connect("main" as never);
    rendererSide.connect("renderer" as never);
    cleanups.push(() => channel.port1.close());
    await Promise.all([mainSide.whenReady(), rendererSide.whenReady()]);

    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    // A view into a larger buffer: only its own bytes may travel.
    const big = new Uint8Array([9, 9, 7, 8, 9, 9]);
    mainSide.send({ type: "sync", senderId: "main", targetId: "renderer", documentId: "d1", data: bytes } as never);
    rendererSide.send({ type: "sync", senderId: "renderer", targetId: "main", documentId: "d1", data: big.subarray(2, 4) } as never);

    const [toRenderer] = await waitFor(() => (fromMain.length ? fromMain : undefined), "main -> renderer");
    const [toMain] = await waitFor(() => (fromRenderer.length ? fromRenderer : undefined), "renderer -> main");
    expect((toRenderer as { data: Uint8Array }).data).toBeInstanceOf(Uint8Array);
    expect([...(toRenderer as { data: Uint8Array }).data]).toEqual([0, 1, 2, 250, 255]);
    expect([...(toMain as { data: Uint8Array }).data]).toEqual([7, 8]);
    // Copied, not transferred: the sender's bytes are still there.
    expect([...bytes]).toEqual([0, 1, 2, 250, 255]);
  });

  it("never hands a transfer list to the main-side port", () => {
    const sent: unknown[][] = [];
    const port = { on: () => port, removeListener: () => port, start() {}, close() {}, postMessage: (...a: unknown[]) => sent.push(a) };
    const shim = domPortFromMain(port);
    const buffer = new ArrayBuffer(4);
    shim.postMessage({ data: buffer }, [buffer]);
    expect(sent).toEqual([[{ data: buffer }]]);
  });

  it("refuses malformed messages from the renderer instead of throwing in the main process", async () => {
    const channel = new MessageChannel();
    const fake = new FakeMessagePortMain(channel.port1);
    const refused: unknown[] = [];
    const adapter = new MessageChannelNetworkAdapter(domPortFromMain(fake, (r) => refused.push(r)));
    const received: unknown[] = [];
    adapter.on("message", (m) => received.push(m));
    adapter.connect("main" as never);
    cleanups.push(() => channel.port1.close());

    // Emitted synchronously, as Electron would: an exception here would be an uncaught one in main.
    expect(() => fake.emit("message", { data: 42, ports: [] })).not.toThrow();
    expect(() => fake.emit("message", { data: null, ports: [] })).not.toThrow();
    expect(() => fake.emit("message", { data: "arrive", ports: [] })).not.toThrow();
    expect(() => fake.emit("message", undefined)).not.toThrow();
    expect(() => fake.emit("message", { data: { type: "sync", senderId: "x", targetId: "someone-else" }, ports: [] })).not.toThrow();
    expect(refused.length).toBe(5);
    expect(received).toEqual([]);
  });

  it("swallows a post to a closed port instead of throwing into the Repo", () => {
    const refused: unknown[] = [];
    const port = {
      on: () => port,
      removeListener: () => port,
      start() {},
      close() {},
      postMessage() {
        throw new Error("port closed");
      },
    };
    expect(() => domPortFromMain(port, (r) => refused.push(r)).postMessage({ type: "leave" })).not.toThrow();
    expect(refused).toHaveLength(1);
  });
});

describe("ReplicaPortBroker", () => {
  function setup() {
    const mainRepo = new Repo({ network: [], sharePolicy: async () => true });
    const channels: MessageChannel[] = [];
    const attached: NetworkAdapterInterface[] = [];
    const broker = new ReplicaPortBroker(
      () => {
        const c = new MessageChannel();
        channels.push(c);
        return { port1: new FakeMessagePortMain(c.port1), port2: new FakeMessagePortMain(c.port2) };
      },
      (adapter) => {
        attached.push(adapter);
        mainRepo.networkSubsystem.addNetworkAdapter(adapter);
      },
    );
    cleanups.push(() => mainRepo.shutdown());
    cleanups.push(() => broker.close());
    return { mainRepo, broker, channels, attached };
  }

  function rendererRepo(port: FakeMessagePortMain): Repo {
    const repo = new Repo({ network: [new MessageChannelNetworkAdapter(port.inner as unknown as MessagePort)], sharePolicy: async () => true });
    cleanups.push(() => repo.shutdown());
    return repo;
  }

  it("syncs a document both ways between the core's Repo and a renderer replica", async () => {
    const { mainRepo, broker } = setup();
    const handle = mainRepo.create<{ text: string }>({ text: "hello" });
    const replica = rendererRepo(broker.open() as FakeMessagePortMain);

    const seen: DocHandle<{ text: string }> = await replica.find<{ text: string }>(handle.url);
    expect(seen.doc()?.text).toBe("hello");
    seen.change((d) => {
      d.text = "hello from the window";
    });
    await waitFor(() => handle.doc()?.text === "hello from the window" || undefined, "the change to reach main");
  });

  it("keeps one live replica port: opening another closes the previous one and its peer", async () => {
    const { mainRepo, broker, channels } = setup();
    const first = rendererRepo(broker.open() as FakeMessagePortMain);
    await waitFor(() => (mainRepo.peers.includes(first.peerId) ? true : undefined), "first replica to connect");

    const second = rendererRepo(broker.open() as FakeMessagePortMain);
    await waitFor(() => (mainRepo.peers.includes(second.peerId) ? true : undefined), "second replica to connect");
    expect(mainRepo.peers).not.toContain(first.peerId);
    expect(channels).toHaveLength(2);
    expect(broker.isOpen).toBe(true);
  });

  it("drops the renderer's peer when its end of the channel closes", async () => {
    const { mainRepo, broker } = setup();
    const port2 = broker.open() as FakeMessagePortMain;
    const replica = rendererRepo(port2);
    await waitFor(() => (mainRepo.peers.includes(replica.peerId) ? true : undefined), "replica to connect");
    port2.close();
    await waitFor(() => (!broker.isOpen ? true : undefined), "the broker to notice the closed port");
    await waitFor(() => (!mainRepo.peers.includes(replica.peerId) ? true : undefined), "main to drop the peer");
  });
});
