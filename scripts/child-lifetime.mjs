/**
 * Keeps the app that `npm start` launches (the Electron app or the host-mode core) from outliving the launcher.
 * npm runs `sh -c "node scripts/start.mjs"`, and dash does not exec that command: a SIGTERM sent to npm (as a
 * supervisor does) is forwarded to sh, which dies without passing it on, and the launcher and its child would keep
 * running, holding their ports and never flushing. So the launcher forwards SIGINT/SIGTERM to its child, stops the
 * child with SIGTERM when its own parent goes away (Node has no parent-death signal, so the parent id is polled), and
 * exits with the child's exit status. Plain JS so `npm start` runs it without a TypeScript loader; not `exec` in the
 * npm script because cmd.exe (npm's shell on Windows) has no exec.
 * What must stay true: the launcher never exits before its child; a stop reaches a child that is still running only.
 */
import { constants } from "node:os";

/** How often the launcher checks that its parent is still there (a cheap getter; this bounds the delay of a stop). */
export const PARENT_POLL_MS = 250;

const FORWARDED = /** @type {const} */ (["SIGINT", "SIGTERM"]);

/**
 * @param {import("node:child_process").ChildProcess} child
 * @param {{ pollMs?: number, exit?: (code: number) => void }} [options]
 */
export function tieChildToLauncher(child, { pollMs = PARENT_POLL_MS, exit = (code) => process.exit(code) } = {}) {
  const stop = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of FORWARDED) process.on(signal, () => stop(signal));
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    stop("SIGTERM");
  }, pollMs);
  // The child's handle keeps the launcher alive; the watch must not keep it alive on its own.
  watch.unref();
  child.on("exit", (code, signal) => {
    clearInterval(watch);
    exit(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1));
  });
}
