/**
 * Sync status (relay, as the core reports it) and whether this window can reach the core at all. Kept current from
 * 'sync-status' events; after the API socket comes back, everything is re-read because events may have been missed.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { ChopinBridge, SyncStatus } from "../../../shared/api.js";
import type { BridgeConnectionState } from "../bridge/socket-bridge.js";
import type { CoreLink } from "../bridge/connect.js";

export interface ConnectionState {
  sync: SyncStatus | null;
  /** This window's link to the core: always "open" in Electron. */
  core: BridgeConnectionState;
}

export type ConnectionStore = StoreApi<ConnectionState> & { start(): () => void };

export function createConnectionStore(bridge: ChopinBridge, coreLink?: CoreLink): ConnectionStore {
  const store = createStore<ConnectionState>(() => ({ sync: null, core: coreLink ? coreLink.state() : "open" }));
  let version = 0;
  const load = async () => {
    const asked = ++version;
    try {
      const sync = await bridge.api.getSyncStatus();
      // An event that arrived while this call was in flight is newer than its answer.
      if (asked === version) store.setState({ sync });
    } catch {
      // The core is unreachable; the core state says so and the next "open" reloads.
    }
  };
  return Object.assign(store, {
    start() {
      const offEvent = bridge.on("sync-status", (sync) => {
        version++;
        store.setState({ sync });
      });
      // The socket may have opened before anyone listened.
      if (coreLink) store.setState({ core: coreLink.state() });
      const offCore = coreLink?.on((core) => {
        store.setState({ core });
        if (core === "open") void load();
      });
      void load();
      return () => {
        offEvent();
        offCore?.();
      };
    },
  });
}
