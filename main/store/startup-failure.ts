/**
 * The app core's words for a failed start (shared/node/startup-failure.ts): host mode prints the sentence, the
 * Electron shell shows it in its error dialog. Exists because a raw "EEXIST: file already exists, mkdir …" or "file
 * is not a database" told a person neither which folder nor what to do.
 */
import { describeStartupFailure } from "../../shared/node/startup-failure.js";
import { LOCAL_DB_FILE } from "./local-db.js";

const CORE_WORDS = {
  dataOption: "--data-dir",
  portOption: "--ui-port or --mcp-port",
  hostOption: null,
  database: `Chopin's database (${LOCAL_DB_FILE})`,
} as const;

/** One sentence for why the core did not start in `dataDir` (when known). */
export function describeCoreFailure(error: unknown, dataDir?: string): string {
  return describeStartupFailure(error, CORE_WORDS, { dataDir });
}
