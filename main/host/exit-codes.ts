/**
 * Host mode's exit codes when it does not start, so a script or supervisor can tell "already running" (nothing is
 * wrong: use the running copy) from a start that failed (a bad option, an unusable data folder).
 * What must stay true: 0 is only a clean stop, and each code keeps its meaning across releases.
 */
import { ChopinError } from "../../shared/errors.js";

/** Bad options, or the core could not start (the printed sentence says why). */
export const EXIT_START_FAILED = 2;
/** Another Chopin process already runs with this data folder; this one touched nothing. */
export const EXIT_ALREADY_RUNNING = 3;

export function startFailureExitCode(error: unknown): number {
  return error instanceof ChopinError && error.code === "already-running" ? EXIT_ALREADY_RUNNING : EXIT_START_FAILED;
}
