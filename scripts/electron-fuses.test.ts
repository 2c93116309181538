/**
 * The packaged app's Electron fuses (electron-builder.yml, issue #23): an installed Chopin cannot be run as plain Node
 * (ELECTRON_RUN_AS_NODE), take NODE_OPTIONS or inspector arguments from outside, or load app code from anywhere but
 * its integrity-checked app.asar. The configuration is read and validated by electron-builder's own code, so a
 * misspelt fuse fails here instead of silently leaving Electron's permissive default.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { getConfig, validateConfiguration } from "app-builder-lib/out/util/config/config.js";
import { DebugLogger } from "builder-util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("the packaged app's Electron fuses", () => {
  it("turn off every way to run other code in the app's process, and check the app's archive", async () => {
    const config = await getConfig(root, join(root, "electron-builder.yml"), null);
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    expect(config.asar).toBe(true);
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it("a fuse electron-builder does not know is refused by its validation", async () => {
    const config = await getConfig(root, join(root, "electron-builder.yml"), null);
    const misspelt = { ...config, electronFuses: { ...config.electronFuses, runAsNod: false } } as typeof config;
    await expect(validateConfiguration(misspelt, new DebugLogger(false))).rejects.toThrow(/electronFuses/);
  });
});
