/**
 * The relay operator's record of refused sign-ins (a wrong, revoked or missing token at the WebSocket upgrade or at
 * GET /v1/team): "why can't Bob connect?" must be answerable from the relay's log. A client retrying with a bad token
 * reconnects every few seconds for as long as it runs, and a hostile one can try faster, so each remote address is
 * logged at most once per RELAY_REFUSAL_LOG_INTERVAL_MS, with how many refusals the quiet period held.
 * What must stay true: never a token in the log (only the status and the reason sentence the client was given), and
 * bounded memory (at most RELAY_REFUSAL_LOG_MAX_ADDRESSES addresses remembered; the oldest is forgotten first).
 */
import { RELAY_REFUSAL_LOG_INTERVAL_MS, RELAY_REFUSAL_LOG_MAX_ADDRESSES } from "./limits.js";

export type RefusalLog = (where: "upgrade" | "/v1/team" | "/v1/agent-chats" | "/v1/agent-stars", address: string | undefined, status: number, reason: string) => void;

export function createRefusalLog(log: (line: string) => void, now: () => number = Date.now): RefusalLog {
  /** Per address: when its last line was logged, and refusals since then not logged. Ordered oldest first. */
  const seen = new Map<string, { loggedAt: number; quiet: number }>();
  return (where, address = "unknown address", status, reason) => {
    const at = now();
    const entry = seen.get(address);
    if (entry && at - entry.loggedAt < RELAY_REFUSAL_LOG_INTERVAL_MS) {
      entry.quiet++;
      return;
    }
    const quiet = entry?.quiet ?? 0;
    seen.delete(address);
    if (seen.size >= RELAY_REFUSAL_LOG_MAX_ADDRESSES) seen.delete(seen.keys().next().value as string);
    seen.set(address, { loggedAt: at, quiet: 0 });
    const more = quiet > 0 ? ` (and ${quiet} more from there since the last line)` : "";
    log(`refused sign-in at ${where} from ${address}: ${status} ${reason}${more}`);
  };
}
