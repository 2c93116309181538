/**
 * How long the relay client waits before its next connection attempt: exponential from RELAY_RECONNECT_MIN_MS,
 * capped at RELAY_RECONNECT_MAX_MS, with jitter in [base/2, base] so a relay restart is not met by every client at
 * once. What must stay true: the delay is never below the minimum nor above the maximum, whatever the attempt count.
 */
import { RELAY_RECONNECT_MAX_MS, RELAY_RECONNECT_MIN_MS } from "../util/limits.js";

/** `attempt` counts failed attempts so far (0 for the first retry); `random` is in [0, 1). */
export function retryDelay(attempt: number, random: number, minMs = RELAY_RECONNECT_MIN_MS, maxMs = RELAY_RECONNECT_MAX_MS): number {
  const base = Math.min(maxMs, minMs * 2 ** attempt);
  return Math.min(Math.max(minMs, base / 2 + random * (base / 2)), maxMs);
}
