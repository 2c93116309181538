/**
 * The one place that decides how this page reaches the core. Electron: the preload's `window.chopin` and a
 * MessagePort for the replica. Host mode (a browser tab served by the core on 127.0.0.1): a WebSocket for the API
 * and another for the replica, both carrying the per-launch secret from the URL fragment. Both give the rest of the
 * renderer the same pair, so nothing else knows which shell it runs in.
 */
import type { NetworkAdapterInterface } from "@automerge/automerge-repo";
import { MessageChannelNetworkAdapter } from "@automerge/automerge-repo-network-messagechannel";
import { BrowserWebSocketClientAdapter } from "@automerge/automerge-repo-network-websocket";
import type { ChopinBridge } from "../../../shared/api.js";
import { ChopinError } from "../../../shared/errors.js";
import { REPLICA_RECONNECT_MS } from "../../../shared/limits.js";
import { takeHostSecret } from "./secret.js";
import { createSocketBridge, type BridgeConnectionState } from "./socket-bridge.js";

/** The state of this window's link to the core, now and as it changes. */
export interface CoreLink {
  state(): BridgeConnectionState;
  on(listener: (state: BridgeConnectionState) => void): () => void;
}

export interface Connection {
  bridge: ChopinBridge;
  replicaAdapter: NetworkAdapterInterface;
  /** Host mode only: the API socket's state, so the UI can say when the core is unreachable. */
  coreLink?: CoreLink;
}

/** URLs of the host-mode sockets for a page served from `origin` (http or https). */
export function hostSocketUrls(location: Pick<Location, "protocol" | "host">, secret: string): { api: string; sync: string } {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const query = `secret=${encodeURIComponent(secret)}`;
  return { api: `${scheme}//${location.host}/api?${query}`, sync: `${scheme}//${location.host}/sync?${query}` };
}

export async function connectBridge(): Promise<Connection> {
  if (window.chopin) {
    const port = await window.chopin.replicaPort();
    const { replicaPort: _port, ...bridge } = window.chopin;
    return { bridge: { api: bridge.api, on: bridge.on.bind(window.chopin) }, replicaAdapter: new MessageChannelNetworkAdapter(port) };
  }
  const secret = takeHostSecret({ location: window.location, storage: window.sessionStorage, history: window.history });
  if (!secret) {
    throw new ChopinError(
      "unauthorized",
      "This page needs the link Chopin printed when it started (it carries a one-time secret). Open that link again.",
    );
  }
  const urls = hostSocketUrls(window.location, secret);
  const socketBridge = createSocketBridge(urls.api);
  return {
    bridge: socketBridge,
    replicaAdapter: new BrowserWebSocketClientAdapter(urls.sync, REPLICA_RECONNECT_MS),
    coreLink: { state: () => socketBridge.connectionState, on: (listener) => socketBridge.onConnection(listener) },
  };
}
