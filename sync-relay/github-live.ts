/**
 * The relay's live sockets admitted by a GitHub token, re-verified every intervalMs through startLiveReverification:
 * a token whose user lost admission (or that GitHub no longer accepts) has all its sockets cut with 4401 and the
 * reason; during a GitHub outage every live socket stays (only new connections are refused).
 *
 * What must stay true:
 * - Tokens are held in memory only while at least one socket made with them is open, keyed by their SHA-256.
 * - Re-verification asks GitHub afresh (the cached answer for that token is dropped first), so a lost admission is
 *   noticed within one interval whatever the cache TTL; new connections still share the cache between passes.
 */
import { GITHUB_ADMISSION_REVERIFY_MS } from "./limits.js";
import { CLOSE_CODES } from "../shared/sync-wire.js";
import type { GitHubAdmission } from "./admission/github-admission.js";
import { startLiveReverification, type LiveGitHubConnection } from "./admission/live-reverify.js";

export interface LiveGitHubSockets {
  /** Remembers an accepted socket's token until the socket closes. */
  track(socket: { once(event: "close", listener: () => void): unknown }, token: string, tokenHash: string): void;
  /** One re-verification pass now; resolves with the number of tokens cut off. */
  reverifyNow(): Promise<number>;
  /** Tokens currently held (for tests and health). */
  readonly trackedTokens: number;
  stop(): void;
}

export function startLiveGitHubSockets(options: {
  admission: GitHubAdmission;
  /** Closes every socket made with the token of that hash; returns how many. */
  cut: (tokenHash: string, code: number, reason: string) => number;
  intervalMs?: number;
  log?: (line: string) => void;
}): LiveGitHubSockets {
  const live = new Map<string, { token: string; sockets: number }>();
  const fresh: GitHubAdmission = {
    verify: (token) => {
      options.admission.forget(token);
      return options.admission.verify(token);
    },
    forget: (token) => options.admission.forget(token),
  };
  const connections = (): LiveGitHubConnection[] =>
    [...live].map(([hash, entry]) => ({
      token: entry.token,
      cutOff: (result) => {
        const cut = options.cut(hash, CLOSE_CODES.revoked, result.reason);
        options.log?.(`GitHub re-verification cut ${cut} connection(s): ${result.code}`);
      },
    }));
  const reverifier = startLiveReverification({
    admission: fresh,
    connections,
    intervalMs: options.intervalMs ?? GITHUB_ADMISSION_REVERIFY_MS,
  });
  return {
    track(socket, token, tokenHash) {
      const entry = live.get(tokenHash) ?? { token, sockets: 0 };
      entry.sockets += 1;
      live.set(tokenHash, entry);
      socket.once("close", () => {
        entry.sockets -= 1;
        if (entry.sockets <= 0 && live.get(tokenHash) === entry) live.delete(tokenHash);
      });
    },
    reverifyNow: () => reverifier.runOnce(),
    get trackedTokens() {
      return live.size;
    },
    stop: () => reverifier.stop(),
  };
}
