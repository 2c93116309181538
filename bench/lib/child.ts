/**
 * Spawns a TypeScript helper process (a relay, a fresh-process measurement) and talks to it through one line:
 * the child prints `BENCH_READY <json>` or `BENCH_RESULT <json>` on stdout. Children run as `node --import tsx`
 * directly, not through the tsx CLI, so the pid we meter is the process doing the work (the CLI forks a second node).
 * What must stay true: every child we start is stopped by its own pid (never by name), even when a suite throws.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

export const BENCH_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");
export const PROJECT_DIR = join(BENCH_DIR, "..");

const READY = "BENCH_READY ";
const RESULT = "BENCH_RESULT ";
const STDERR_TAIL_CHARS = 4000;

export interface TsChild {
  pid: number;
  process: ChildProcess;
  /** Resolves with the JSON of the first BENCH_READY line; rejects if the child exits first. */
  ready: Promise<unknown>;
  /** Resolves with the JSON of the BENCH_RESULT line once the child has exited with code 0. */
  result: Promise<unknown>;
  stderrTail(): string;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
/** Last-resort cleanup: if the bench runner dies, take down the children it started (by pid). */
process.on("exit", () => {
  for (const child of live) if (child.exitCode === null && child.pid) child.kill("SIGKILL");
});

export interface SpawnOptions {
  env?: Record<string, string>;
  nodeArgs?: string[];
  /** Also print the child's stderr as it arrives (debugging). */
  echoStderr?: boolean;
}

export function spawnTs(script: string, args: string[] = [], options: SpawnOptions = {}): TsChild {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), "--import", "tsx", script, ...args], {
    cwd: PROJECT_DIR,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  live.add(child);
  let stderr = "";
  let stdoutBuf = "";
  let resultJson: unknown;
  let haveResult = false;
  let resolveReady!: (v: unknown) => void;
  let rejectReady!: (e: Error) => void;
  const ready = new Promise<unknown>((res, rej) => {
    resolveReady = res;
    rejectReady = rej;
  });
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
    if (options.echoStderr) process.stderr.write(chunk);
  });
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (chunk: string) => {
    stdoutBuf += chunk;
    let nl: number;
    while ((nl = stdoutBuf.indexOf("\n")) >= 0) {
      const line = stdoutBuf.slice(0, nl);
      stdoutBuf = stdoutBuf.slice(nl + 1);
      if (line.startsWith(READY)) resolveReady(JSON.parse(line.slice(READY.length)));
      else if (line.startsWith(RESULT)) {
        resultJson = JSON.parse(line.slice(RESULT.length));
        haveResult = true;
      }
    }
  });
  const exited = new Promise<number | null>((res) => child.on("exit", (code) => res(code)));
  void exited.then((code) => {
    live.delete(child);
    rejectReady(new Error(`${script} exited (code ${code}) before it was ready: ${stderr.slice(-800)}`));
  });
  const result = exited.then((code) => {
    if (code !== 0 || !haveResult) {
      throw new Error(`${script} exited with code ${code} without a result: ${stderr.slice(-1500)}`);
    }
    return resultJson;
  });
  result.catch(() => undefined);
  ready.catch(() => undefined);
  return {
    pid: child.pid!,
    process: child,
    ready,
    result,
    stderrTail: () => stderr,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** For child scripts: announce readiness with a JSON payload. */
export function announceReady(payload: unknown): void {
  process.stdout.write(`${READY}${JSON.stringify(payload)}\n`);
}

/** For child scripts: hand back a result (the parent reads it after the child exits 0). */
export function announceResult(payload: unknown): void {
  process.stdout.write(`${RESULT}${JSON.stringify(payload)}\n`);
}

/** For child scripts: exit cleanly on SIGTERM after running `cleanup`. */
export function onTerminate(cleanup: () => Promise<void> | void): void {
  const handler = () => {
    Promise.resolve()
      .then(cleanup)
      .catch(() => undefined)
      .finally(() => process.exit(0));
  };
  process.once("SIGTERM", handler);
  process.once("SIGINT", handler);
}
