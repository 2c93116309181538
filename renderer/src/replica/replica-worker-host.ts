/**
 * The replica host as the worker runs it: the page's first message is "init" (how to reach the core, this window's
 * id, the outbox's entries); the Repo and the host are built from it and every later message goes to the host, in
 * the order the page sent it (those that came while this module loaded first).
 * What must stay true: a refused page stops the replica's reconnecting for good; nothing but "init" starts a host.
 */
import type { BridgeConnectionState } from "../bridge/socket-bridge.js";
import { replicaAdapterFor, stopReplicaAdapter, type ReplicaNetwork } from "../bridge/replica-network.js";
import type { MessageEndpoint } from "../replica-link/port-link.js";
import type { HostLink, HostToPage, PageToHost } from "./host-protocol.js";
import { createReplica } from "./replica.js";
import { ReplicaHost } from "./replica-host.js";

export interface ReplicaInit {
  t: "init";
  network: ReplicaNetwork;
  windowId: string;
  storage: [string, string | null][] | null;
  coreLink: BridgeConnectionState | null;
}

export function runReplicaWorker(scope: MessageEndpoint, early: unknown[]): void {
  const listeners = new Set<(message: PageToHost) => void>();
  let started = false;
  const link: HostLink<HostToPage, PageToHost> = {
    post: (message) => scope.postMessage(message, []),
    listen: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
  let adapter: ReturnType<typeof replicaAdapterFor> | null = null;
  const receive = (data: unknown) => {
    if (!started) {
      const init = data as ReplicaInit;
      if (init?.t !== "init") return;
      started = true;
      adapter = replicaAdapterFor(init.network);
      new ReplicaHost({ repo: createReplica(adapter), link, windowId: init.windowId, storage: init.storage, coreLink: init.coreLink });
      return;
    }
    const message = data as PageToHost;
    if (message?.t === "disconnect" && adapter) stopReplicaAdapter(adapter);
    listeners.forEach((listener) => listener(message));
  };
  early.forEach(receive);
  scope.addEventListener("message", (event) => receive(event.data));
}
