/**
 * How the window's replica reaches the core, described so the replica host can build it where it runs (a Web
 * Worker): Electron hands the page a MessagePort (transferable to the worker); host mode names the core's /sync
 * socket. What must stay true: the adapter made here is the only network the replica has.
 */
import type { NetworkAdapterInterface } from "@automerge/automerge-repo";
import { MessageChannelNetworkAdapter } from "@automerge/automerge-repo-network-messagechannel";
import { BrowserWebSocketClientAdapter } from "@automerge/automerge-repo-network-websocket";
import { REPLICA_RECONNECT_MS } from "../limits.js";

export type ReplicaNetwork = { kind: "port"; port: MessagePort } | { kind: "socket"; url: string };

export function replicaAdapterFor(network: ReplicaNetwork): NetworkAdapterInterface {
  return network.kind === "port" ? new MessageChannelNetworkAdapter(network.port) : new BrowserWebSocketClientAdapter(network.url, REPLICA_RECONNECT_MS);
}

/** Stops an adapter for good (a refused secret never becomes good). */
export function stopReplicaAdapter(adapter: NetworkAdapterInterface): void {
  try {
    adapter.disconnect();
  } catch {
    // The adapter asserts it was connected; one that never was has nothing to stop.
  }
}
