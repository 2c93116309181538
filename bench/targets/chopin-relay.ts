/**
 * Target: our relay (sync-relay/, started by chopin-relay-process.ts in its own process) with the app core's own
 * client adapter (main/sync/relay-client-adapter.ts: bearer token, peer id "<handle>:<device>"). The modules are
 * loaded by computed specifiers and checked at run time, so when either side is missing or has a different API the
 * row reads "not available: <reason>" instead of a number. The client Repo is attached to the adapter (attachRepo) as
 * the app core does, which turns on the change fast path (sync-relay/fast-path.ts) when both sides have it.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { NetworkAdapterInterface, Repo } from "@automerge/automerge-repo";
import { BENCH_DIR, PROJECT_DIR, spawnTs } from "../lib/child.js";
import { connectAutomergeClient } from "./automerge-client.js";
import { RelayNotAvailable, type RelayTarget } from "./relay-target.js";

type ChopinAdapter = NetworkAdapterInterface & { attachRepo?: (repo: Repo) => void };
type AdapterCtor = new (options: { url: string; token: string; peerId?: string }) => ChopinAdapter;

async function loadClientAdapter(): Promise<AdapterCtor> {
  const path = join(PROJECT_DIR, "main/sync/relay-client-adapter.ts");
  if (!existsSync(path)) throw new RelayNotAvailable("main/sync/relay-client-adapter.ts does not exist");
  const specifier = "../../main/sync/relay-client-adapter.js";
  const mod = (await import(specifier)) as { RelayClientAdapter?: AdapterCtor };
  if (typeof mod.RelayClientAdapter !== "function") throw new RelayNotAvailable("main/sync/relay-client-adapter.ts exports no RelayClientAdapter");
  return mod.RelayClientAdapter;
}

/** `fastPath: false` leaves the client Repo unattached: the relay then syncs it by the sync protocol alone (the "before"). */
function chopinTarget(name: string, fastPath: boolean): RelayTarget {
  return {
    name,
    async start() {
      if (!existsSync(join(PROJECT_DIR, "sync-relay/server.ts"))) throw new RelayNotAvailable("sync-relay/server.ts does not exist");
      await loadClientAdapter();
      // BENCH_RELAY_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the relay process.
      const nodeArgs = process.env.BENCH_RELAY_NODE_ARGS?.split(" ").filter(Boolean);
      const child = spawnTs(join(BENCH_DIR, "targets/chopin-relay-process.ts"), [], { nodeArgs });
      let ready: { url: string; token: string; handle: string };
      try {
        ready = (await child.ready) as typeof ready;
      } catch (error) {
        throw new RelayNotAvailable(`the relay did not start: ${error instanceof Error ? error.message.slice(0, 300) : String(error)}`);
      }
      return { pid: child.pid, endpoint: ready, stop: () => child.stop() };
    },
    async connect(endpoint, label) {
      const Adapter = await loadClientAdapter();
      const peerId = `${endpoint.handle}:${label}-${Math.random().toString(36).slice(2, 8)}`;
      const adapter = new Adapter({ url: String(endpoint.url), token: String(endpoint.token), peerId });
      // The app core attaches its Repo the same way (RelayConnection.attachRepo): that turns on the change fast path.
      const onRepo = fastPath ? (repo: Repo) => adapter.attachRepo?.(repo) : undefined;
      return connectAutomergeClient(adapter, label, peerId, onRepo);
    },
  };
}

export const chopinRelay = chopinTarget("chopin relay", true);
export const chopinRelaySyncOnly = chopinTarget("chopin relay, sync only", false);
