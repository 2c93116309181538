/** The OS's per-user application-data folder, where an installation keeps its data when no --data-dir is given. */
import { homedir } from "node:os";
import { join } from "node:path";
import { APP_DATA_FOLDER_NAME } from "../../shared/defaults.js";

export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === "win32") return join(env.APPDATA ?? join(home, "AppData", "Roaming"), APP_DATA_FOLDER_NAME);
  if (platform === "darwin") return join(home, "Library", "Application Support", APP_DATA_FOLDER_NAME);
  return join(env.XDG_CONFIG_HOME || join(home, ".config"), APP_DATA_FOLDER_NAME);
}
