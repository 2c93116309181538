/**
 * The sync status in words. Only states the core reports are named; nothing is inferred or made up here.
 * "Offline" always says how many local changes are still waiting for the relay.
 */
import type { SyncStatus } from "../../../shared/api.js";

export function changesWord(n: number): string {
  return n === 1 ? "1 change" : `${n} changes`;
}

export function describeSync(status: SyncStatus | null): string {
  if (!status) return "Checking…";
  switch (status.state) {
    case "local-only":
      return "Local only";
    case "connecting":
      return "Connecting…";
    case "connected":
      return status.pendingChanges > 0 ? `Connected — sending ${changesWord(status.pendingChanges)}` : "Connected";
    case "offline":
      return `Offline — ${changesWord(status.pendingChanges)} waiting`;
    case "reconnecting":
      return "Reconnecting…";
    case "unauthorized":
      return "Relay refused the token";
  }
}

/** Tone for styling the status dot: a person should notice "bad" without reading. */
export function syncTone(status: SyncStatus | null): "neutral" | "good" | "busy" | "bad" {
  if (!status) return "neutral";
  switch (status.state) {
    case "local-only":
      return "neutral";
    case "connected":
      return status.pendingChanges > 0 ? "busy" : "good";
    case "connecting":
    case "reconnecting":
      return "busy";
    case "offline":
    case "unauthorized":
      return "bad";
  }
}
