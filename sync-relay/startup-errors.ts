/**
 * The relay's words for a failed start or user command (shared/node/startup-failure.ts): one sentence that says what
 * is wrong and what to do, instead of a raw "EEXIST: file already exists, mkdir …".
 */
import { describeStartupFailure, type FailureContext } from "../shared/node/startup-failure.js";
import { RELAY_DB_FILE } from "./relay-db.js";

export type { FailureContext } from "../shared/node/startup-failure.js";

const RELAY_WORDS = {
  dataOption: "--data (or CHOPIN_RELAY_DATA)",
  portOption: "--port",
  hostOption: "--host",
  // Named with its file, so "not a readable SQLite database" points at the one file to keep or move aside.
  database: `the relay database (${RELAY_DB_FILE})`,
} as const;

export function describeRelayFailure(error: unknown, context: FailureContext = {}): string {
  return describeStartupFailure(error, RELAY_WORDS, context);
}
