/**
 * The one place that decides how this page reaches the core. Electron: the preload's `window.chopin` and a
 * MessagePort for the replica. Host mode (a browser tab served by the core on 127.0.0.1): a WebSocket for the API
 * and another for the replica, both carrying the per-launch secret from the URL fragment. Both give the rest of the
 * renderer the same pair, so nothing else knows which shell it runs in. When the core refuses the secret (a wrong one,
 * or one kept from an earlier launch), the remembered secret is forgotten and both sockets stop retrying: the window
 * shows the fatal screen (see App) instead of reconnecting forever. Whether that secret had worked in this tab before
 * (so Chopin was restarted) is recorded for the screen's words (secret.ts).
 */
import type { ChopinBridge } from "../../../shared/api.js";
import { ChopinError } from "../../../shared/errors.js";
import type { ReplicaNetwork } from "./replica-network.js";
import { recordRefusal, rememberLinked, takeHostSecret, type SecretEnvironment } from "./secret.js";
import { createSocketBridge, type BridgeConnectionState, type SocketBridgeOptions, type WebSocketFactory } from "./socket-bridge.js";

/** The state of this window's link to the core, now and as it changes. */
export interface CoreLink {
  state(): BridgeConnectionState;
  on(listener: (state: BridgeConnectionState) => void): () => void;
}

export interface Connection {
  bridge: ChopinBridge;
  /** Where the replica host (a worker) connects to the core. */
  replicaNetwork: ReplicaNetwork;
  /** Called once if the core refuses this page for good: the replica must stop reconnecting. */
  onReplicaRefused(listener: () => void): void;
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
    return {
      bridge: { api: bridge.api, on: bridge.on.bind(window.chopin) },
      replicaNetwork: { kind: "port", port },
      onReplicaRefused: () => undefined,
    };
  }
  return connectHost({ location: window.location, storage: window.sessionStorage, history: window.history });
}

export interface HostEnvironment extends SecretEnvironment {
  location: SecretEnvironment["location"] & Pick<Location, "protocol" | "host">;
  storage: SecretEnvironment["storage"] & Pick<Storage, "removeItem">;
  /** Tests only: how the API socket is made and how a refusal is told from a core that is down. */
  createSocket?: WebSocketFactory;
  probe?: SocketBridgeOptions["probe"];
}

/** Host mode: both sockets to the core serving this page, with the secret from the fragment or the session. */
export function connectHost(env: HostEnvironment): Connection {
  const secret = takeHostSecret(env);
  if (!secret) {
    throw new ChopinError(
      "unauthorized",
      "This page needs the link Chopin printed when it started (it carries a one-time secret). Open that link again.",
    );
  }
  const urls = hostSocketUrls(env.location, secret);
  const socketBridge = createSocketBridge(urls.api, env.createSocket, { probe: env.probe });
  const refusedListeners: (() => void)[] = [];
  let refused = false;
  socketBridge.onConnection((state) => {
    if (state === "open") rememberLinked(env.storage, secret);
    if (state !== "refused" || refused) return;
    refused = true;
    // A refused secret never becomes good: a reload must not try it again, and the replica must stop retrying too.
    recordRefusal(env.storage, secret);
    refusedListeners.forEach((listener) => listener());
  });
  return {
    bridge: socketBridge,
    replicaNetwork: { kind: "socket", url: urls.sync },
    onReplicaRefused: (listener) => (refused ? listener() : void refusedListeners.push(listener)),
    coreLink: { state: () => socketBridge.connectionState, on: (listener) => socketBridge.onConnection(listener) },
  };
}
