/**
 * Periodic re-verification of live connections admitted by a GitHub token. A connection whose user lost admission
 * (or whose token GitHub no longer accepts) is cut off; during a GitHub outage live connections stay (only new ones
 * are refused). The relay server supplies the live set and the cut-off action; this module owns only the policy.
 */
import { GITHUB_ADMISSION_REVERIFY_MS } from "../limits.js";
import type { AdmissionResult, GitHubAdmission } from "./github-admission.js";

export interface LiveGitHubConnection {
  token: string;
  /** Called once when the connection must end; the reason is a sentence for the person. */
  cutOff(result: Extract<AdmissionResult, { ok: false }>): void;
}

export interface LiveReverifier {
  /** One pass over the live set; resolves with how many were cut off. */
  runOnce(): Promise<number>;
  stop(): void;
}

export function startLiveReverification(options: {
  admission: GitHubAdmission;
  connections: () => Iterable<LiveGitHubConnection>;
  intervalMs?: number;
}): LiveReverifier {
  let running: Promise<number> | null = null;
  const runOnce = () => {
    running ??= (async () => {
      let cut = 0;
      const live = [...options.connections()];
      const results = await Promise.all(live.map((c) => options.admission.verify(c.token)));
      live.forEach((c, i) => {
        const r = results[i];
        if (!r.ok && r.code !== "github-unavailable") {
          cut += 1;
          c.cutOff(r);
        }
      });
      return cut;
    })().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = setInterval(() => void runOnce().catch(() => {}), options.intervalMs ?? GITHUB_ADMISSION_REVERIFY_MS);
  timer.unref?.();
  return { runOnce, stop: () => clearInterval(timer) };
}
