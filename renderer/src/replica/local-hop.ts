/**
 * The window's half of the local-hop pace (the core sets the other half in main/core/app-core.ts): the replica syncs
 * its only peer, the core on this machine, LOCAL_HOP_SYNC_INTERVAL_MS after a keystroke instead of automerge-repo's
 * stock 100 ms, so typing reaches the core, and from there the relay fast path, without that wait. A round over this
 * hop costs well under a millisecond (shared/sync-pacing.ts explains the patched synchronizer that reads the pace).
 * What must stay true: the pace lasts only while the core is connected.
 */
import type { NetworkAdapterInterface, Repo } from "@automerge/automerge-repo";
import { LOCAL_HOP_SYNC_INTERVAL_MS } from "../../../shared/limits.js";
import { syncPacing } from "../../../shared/sync-pacing.js";

export function paceLocalHop(repo: Repo, adapter: NetworkAdapterInterface): void {
  adapter.on("peer-candidate", ({ peerId }) => syncPacing().set(repo.peerId, peerId, LOCAL_HOP_SYNC_INTERVAL_MS));
  adapter.on("peer-disconnected", ({ peerId }) => syncPacing().clear(repo.peerId, peerId));
}
