/**
 * The relay's words for a failed start or user command (shared/node/startup-failure.ts): one sentence that says what
 * is wrong and what to do, instead of a raw "EEXIST: file already exists, mkdir …".
 */
import { describeStartupFailure, type FailureContext } from "../shared/node/startup-failure.js";

export type { FailureContext } from "../shared/node/startup-failure.js";

const RELAY_WORDS = {
  dataOption: "--data (or CHOPIN_RELAY_DATA)",
  portOption: "--port",
  hostOption: "--host",
  database: "the relay database",
} as const;

export function describeRelayFailure(error: unknown, context: FailureContext = {}): string {
  return describeStartupFailure(error, RELAY_WORDS, context);
}
