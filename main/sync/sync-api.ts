/** The sync half of ChopinApi: the relay link's state, as the sync indicator shows it (sync-status.ts). */
import type { SyncApi } from "../../shared/api.js";
import { checkedApi } from "../util/checked-api.js";
import type { SyncStatusPublisher } from "./sync-status.js";

export function createSyncApi(status: Pick<SyncStatusPublisher, "status">): SyncApi {
  return checkedApi<SyncApi>({ getSyncStatus: async () => status.status() });
}
