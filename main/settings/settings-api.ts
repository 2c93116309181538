/**
 * The settings half of ChopinApi: this device's settings, who the person is, and how agents connect (issue #24: one
 * factory per domain, beside its service). A change of the relay address or token is followed by the relay link
 * before the answer, and every window hears the new settings.
 */
import type { ChopinEvents, Identity, McpConnectionInfo, Settings, SettingsApi } from "../../shared/api.js";
import { checkedApi } from "../util/checked-api.js";
import type { TypedEmitter } from "../util/typed-emitter.js";
import type { SettingsService } from "./settings-service.js";

export interface SettingsApiDeps {
  settings: Pick<SettingsService, "get" | "update">;
  /** The relay link follows the settings (the address, and the credential that goes with it). */
  followRelay(settings: Settings): Promise<void>;
  events: TypedEmitter<ChopinEvents>;
  mcpInfo(): McpConnectionInfo;
  identity(): Identity;
}

export function createSettingsApi(deps: SettingsApiDeps): SettingsApi {
  return checkedApi<SettingsApi>({
    getSettings: async () => deps.settings.get(),
    updateSettings: async (patch) => {
      const after = deps.settings.update(patch);
      await deps.followRelay(after);
      deps.events.emit("settings-changed", after);
      return after;
    },
    getMcpInfo: async () => deps.mcpInfo(),
    getIdentity: async () => deps.identity(),
  });
}
