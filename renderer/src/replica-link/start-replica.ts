/**
 * Starts this window's replica host in a Web Worker and returns the page's client for it. The worker gets how to
 * reach the core (Electron's MessagePort is transferred to it), this window's id and the origin's outbox entries;
 * the page keeps it told of what only the page hears (the core link's state, other windows' storage changes, the
 * page going away).
 * What must stay true: one worker per page load; a worker that fails is said in words.
 */
import type { Connection } from "../bridge/connect.js";
import type { HostToPage, PageToHost } from "../replica/host-protocol.js";
import { OUTBOX_KEY_PREFIX } from "../replica/outbox-store.js";
import type { ReplicaInit } from "../replica/replica-worker-host.js";
import { portLink } from "./port-link.js";
import { ReplicaClient, type ReplicaApi } from "./replica-client.js";

export function startReplicaWorker(options: {
  connection: Connection;
  api: ReplicaApi;
  windowId: string;
  storage: Storage | null;
  notify: (message: string) => void;
}): ReplicaClient {
  const { connection, storage } = options;
  const worker = new Worker(new URL("../replica/replica.worker.ts", import.meta.url), { type: "module", name: "chopin-replica" });
  const network = connection.replicaNetwork;
  const init: ReplicaInit = {
    t: "init",
    network,
    windowId: options.windowId,
    storage: storage ? outboxEntries(storage) : null,
    coreLink: connection.coreLink?.state() ?? null,
  };
  worker.postMessage(init, network.kind === "port" ? [network.port] : []);
  const link = portLink<PageToHost, HostToPage>(worker);
  const client = new ReplicaClient({ link, api: options.api, storage, notify: options.notify });
  connection.onReplicaRefused(() => link.post({ t: "disconnect" }));
  connection.coreLink?.on((state) => client.coreLinkChanged(state));
  window.addEventListener("storage", (event) => {
    if (event.storageArea === storage) client.storageChanged(event.key, event.newValue);
  });
  window.addEventListener("pagehide", () => client.flush());
  worker.addEventListener("error", () =>
    options.notify("This window's document replica stopped working; reload the window to go on editing (your edits up to now are kept)."),
  );
  return client;
}

/** The outbox's entries in `storage` now; [] when it cannot be read. */
export function outboxEntries(storage: Pick<Storage, "length" | "key" | "getItem">): [string, string | null][] {
  const entries: [string, string | null][] = [];
  try {
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key?.startsWith(OUTBOX_KEY_PREFIX)) entries.push([key, storage.getItem(key)]);
    }
  } catch {
    // Storage switched off meanwhile: nothing to replay from here.
  }
  return entries;
}
