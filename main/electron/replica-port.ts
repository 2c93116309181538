/**
 * The renderer's replica syncs with the core's Repo over a MessageChannelMain: no open port, nothing another process
 * can reach. automerge-repo's MessageChannelNetworkAdapter expects a DOM MessagePort; Electron's main-side port is a
 * Node EventEmitter (`.on("message", ({ data }) => ...)`) whose postMessage accepts only MessagePortMain objects as
 * transferables. The shim bridges the two: it drops the transfer list (the ArrayBuffer is then copied by structured
 * clone instead of moved), and it drops what a renderer must not be able to do to the main process: a message that
 * is not an object, or one that makes the adapter throw, is refused instead of crashing main.
 * One live replica port per window: opening a new one (a reload) closes the previous one and its adapter.
 */
import type { NetworkAdapterInterface } from "@automerge/automerge-repo";
import { MessageChannelNetworkAdapter } from "@automerge/automerge-repo-network-messagechannel";

/** What this file needs of Electron's MessagePortMain (structurally; the real one fits). */
export interface MessagePortMainLike {
  on(event: "message", listener: (messageEvent: { data: unknown }) => void): unknown;
  on(event: "close", listener: () => void): unknown;
  removeListener(event: "message", listener: (messageEvent: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
  start(): void;
  close(): void;
}

type DomListener = EventListenerOrEventListenerObject;

/** A DOM-MessagePort face over a MessagePortMain, enough for MessageChannelNetworkAdapter. */
export function domPortFromMain(port: MessagePortMainLike, onRefused: (reason: unknown) => void = () => undefined): MessagePort {
  const wrapped = new Map<DomListener, (messageEvent: { data: unknown }) => void>();
  const shim = {
    addEventListener(type: string, listener: DomListener | null) {
      if (type !== "message" || !listener || wrapped.has(listener)) return;
      const call = typeof listener === "function" ? listener : (e: Event) => listener.handleEvent(e);
      const onMessage = (messageEvent: { data: unknown }) => {
        const data = messageEvent?.data;
        if (data === null || typeof data !== "object") {
          onRefused(new TypeError("replica message is not an object"));
          return;
        }
        try {
          call({ data } as MessageEvent);
        } catch (error) {
          onRefused(error);
        }
      };
      wrapped.set(listener, onMessage);
      port.on("message", onMessage);
    },
    removeEventListener(type: string, listener: DomListener | null) {
      const onMessage = listener ? wrapped.get(listener) : undefined;
      if (type !== "message" || !onMessage || !listener) return;
      wrapped.delete(listener);
      port.removeListener("message", onMessage);
    },
    // Invariant: never pass a transfer list on; MessagePortMain throws on anything but ports.
    postMessage(message: unknown) {
      try {
        port.postMessage(message);
      } catch (error) {
        onRefused(error);
      }
    },
    start() {
      port.start();
    },
    close() {
      port.close();
    },
  };
  return shim as unknown as MessagePort;
}

/** Hands out replica ports and keeps exactly one connected to the core's Repo. */
export class ReplicaPortBroker<Port extends MessagePortMainLike = MessagePortMainLike> {
  #current: { port: Port; adapter: MessageChannelNetworkAdapter } | null = null;

  constructor(
    private readonly createChannel: () => { port1: Port; port2: Port },
    private readonly attach: (adapter: NetworkAdapterInterface) => void,
    private readonly onRefused: (reason: unknown) => void = () => undefined,
  ) {}

  /** Connects a fresh channel's first port to the Repo and returns the second, for the renderer. */
  open(): Port {
    this.close();
    const { port1, port2 } = this.createChannel();
    const adapter = new MessageChannelNetworkAdapter(domPortFromMain(port1, this.onRefused));
    const current = { port: port1, adapter };
    this.#current = current;
    // The renderer went away (reload, crash, closed window): drop its peer from the Repo.
    port1.on("close", () => {
      if (this.#current === current) this.close();
    });
    this.attach(adapter);
    return port2;
  }

  get isOpen(): boolean {
    return this.#current !== null;
  }

  close(): void {
    const current = this.#current;
    if (!current) return;
    this.#current = null;
    current.adapter.disconnect();
    current.port.close();
  }
}
