/**
 * The sync status in words. Only states the core reports are named; nothing is inferred or made up here.
 * "Offline", "Reconnecting…" and "Cannot join the team" say how many local changes are still waiting for the relay
 * when there are any (nothing waiting is the state alone), and, while the core retries, when the next attempt comes (counted down from the core's nextRetryAt, so
 * the words need the current time).
 */
import type { SyncStatus } from "../../../shared/api.js";

export function changesWord(n: number): string {
  return n === 1 ? "1 change" : `${n} changes`;
}

/** "retrying in 12s", or "retrying now" once the attempt is due; null when the core is not retrying. */
export function retryWords(nextRetryAt: number | null | undefined, now: number): string | null {
  if (nextRetryAt === null || nextRetryAt === undefined) return null;
  const seconds = Math.ceil((nextRetryAt - now) / 1000);
  return seconds > 0 ? `retrying in ${seconds}s` : "retrying now";
}

/** " — 3 changes waiting", or "" when nothing waits. */
function waiting(status: SyncStatus): string {
  return status.pendingChanges > 0 ? ` — ${changesWord(status.pendingChanges)} waiting` : "";
}

/** `now` null leaves the retry countdown out (the status bar shows it apart, outside its live region). */
export function describeSync(status: SyncStatus | null, now: number | null = Date.now()): string {
  if (!status) return "Checking…";
  switch (status.state) {
    case "local-only":
      return "Local only";
    case "connecting":
      return "Connecting…";
    case "connected":
      return status.pendingChanges > 0 ? `Connected — sending ${changesWord(status.pendingChanges)}` : "Connected";
    case "offline": {
      const retry = now === null ? null : retryWords(status.nextRetryAt, now);
      return `Offline${waiting(status)}${retry ? ` · ${retry}` : ""}`;
    }
    // Changes wait in these states too: a person who was cut off or is reconnecting must still see how much.
    case "reconnecting":
      return `Reconnecting…${waiting(status)}`;
    case "unauthorized":
      return `Cannot join the team${waiting(status)}`;
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
