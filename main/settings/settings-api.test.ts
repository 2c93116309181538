/** The settings half of ChopinApi at its boundary (issue #24): a patch that is not an object changes nothing. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ChopinEvents } from "../../shared/api.js";
import { openLocalDb } from "../store/local-db.js";
import { TypedEmitter } from "../util/typed-emitter.js";
import { createSettingsApi } from "./settings-api.js";
import { SettingsService } from "./settings-service.js";

function api() {
  const settings = new SettingsService(openLocalDb(mkdtempSync(join(tmpdir(), "chopin-settings-api-"))));
  const events = new TypedEmitter<ChopinEvents>();
  const heard: unknown[] = [];
  events.on("settings-changed", (after) => void heard.push(after));
  const followed: unknown[] = [];
  const settingsApi = createSettingsApi({
    settings,
    followRelay: async (after) => void followed.push(after.relayUrl),
    events,
    mcpInfo: () => ({ url: "http://127.0.0.1:1/mcp", configPath: "/x", commands: { copilotCli: "", claudeCode: "", codex: "" } }),
    identity: () => ({ peerId: "p", displayName: settings.get().displayName, color: "#000" }),
  });
  return { settingsApi, settings, heard, followed };
}

describe("the settings API", () => {
  it("refuses a patch that is not an object, changing nothing", async () => {
    const { settingsApi, heard, followed } = api();
    await settingsApi.updateSettings({ displayName: "Ada" });
    const patches = [[[], "not a list"], ["Grace", "not text"], [null, "not null"], [undefined, "none was sent"], [7, "not a number"]] as const;
    for (const [patch, kind] of patches) {
      await expect(settingsApi.updateSettings(patch as never)).rejects.toMatchObject({
        code: "invalid-input",
        message: `Settings must be sent as an object, ${kind}.`,
      });
    }
    expect((await settingsApi.getSettings()).displayName).toBe("Ada");
    expect(heard).toHaveLength(1);
    expect(followed).toHaveLength(1);
  });

  it("has the relay link follow a change, and tells every window", async () => {
    const { settingsApi, heard, followed } = api();
    const after = await settingsApi.updateSettings({ relayUrl: "wss://relay.example", relayToken: "tok" });
    expect(after).toMatchObject({ relayUrl: "wss://relay.example", relayTokenSet: true });
    expect(followed).toEqual(["wss://relay.example"]);
    expect(heard).toEqual([after]);
  });
});
