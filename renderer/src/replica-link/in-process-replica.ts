/**
 * The replica host in this same thread, over a real MessageChannel (structured clone between the two ends, as with a
 * worker): what tests and test pages run, with a Repo they made themselves.
 */
import type { Repo } from "@automerge/automerge-repo";
import type { HostToPage, PageToHost } from "../replica/host-protocol.js";
import { ReplicaHost } from "../replica/replica-host.js";
import { portLink } from "./port-link.js";
import { ReplicaClient, type ReplicaApi } from "./replica-client.js";
import { outboxEntries } from "./start-replica.js";

export function startInProcessReplica(options: {
  repo: Repo;
  api: ReplicaApi;
  windowId?: string;
  storage?: Storage | null;
  notify?: (message: string) => void;
  openTimeoutMs?: number;
}): { client: ReplicaClient; host: ReplicaHost; stop(): void } {
  const { port1, port2 } = new MessageChannel();
  const storage = options.storage ?? null;
  const host = new ReplicaHost({
    repo: options.repo,
    link: portLink<HostToPage, PageToHost>(port1),
    windowId: options.windowId ?? "test-window",
    storage: storage ? outboxEntries(storage) : null,
    coreLink: null,
    openTimeoutMs: options.openTimeoutMs,
  });
  const client = new ReplicaClient({ link: portLink<PageToHost, HostToPage>(port2), api: options.api, storage, notify: options.notify ?? (() => undefined) });
  return {
    client,
    host,
    stop() {
      client.stop();
      host.stop();
      port1.close();
      port2.close();
    },
  };
}
