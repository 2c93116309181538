/**
 * The Electron binary the `electron` package has installed, or null, found from its path.txt. Never through
 * require("electron"): that starts a download when the binary is missing. Shared by `npm start` (which may then fetch
 * it on purpose) and the Electron e2e (which must never fetch).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export function installedElectron(projectRoot) {
  const pkg = join(projectRoot, "node_modules", "electron");
  const pathFile = join(pkg, "path.txt");
  if (!existsSync(pathFile)) return null;
  const binary = join(pkg, "dist", readFileSync(pathFile, "utf8").trim());
  return existsSync(binary) ? binary : null;
}
