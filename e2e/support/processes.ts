/**
 * Starts our real processes (relay, host-mode app cores) for e2e tests and waits for their ready lines. Every child
 * is tracked and killed when the test file ends, so a failed test never leaves a server behind.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const live = new Set<ChildProcess>();

export interface Started<T> {
  child: ChildProcess;
  ready: T;
  output: () => string;
  /** Sends the signal and waits for the process to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `chopin-e2e-${prefix}-`));
}

/** Runs a TypeScript entry with tsx and resolves with the JSON after `marker` on its stdout. */
export function startTs<T>(entry: string, args: string[], marker: string, env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<Started<T>> {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, entry), ...args], {
    cwd: ROOT,
    env: { ...process.env, CI: "true", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  live.add(child);
  let out = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.once("exit", () => live.delete(child));
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} did not print ${marker} within ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n").find((l) => l.startsWith(marker + " "));
      if (line) {
        clearTimeout(timer);
        resolve({ child, ready: JSON.parse(line.slice(marker.length + 1)) as T, output: () => out, stop });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code} before it was ready:\n${out}`));
    });
  });
}

/** Runs a TypeScript entry to completion and returns its output. */
export function runTs(entry: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, entry), ...args], { cwd: ROOT, env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}

export async function stopAll(): Promise<void> {
  await Promise.all(
    [...live].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGKILL");
        }),
    ),
  );
}

export interface CoreReady {
  url: string;
  port: number;
  secret: string;
  mcpUrl: string;
  mcpPort: number;
  dataDir: string;
}

export function startCore(dataDir: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Started<CoreReady>> {
  return startTs<CoreReady>("main/cli.ts", ["--headless", "--no-open", "--data-dir", dataDir, "--ui-port", "0", "--mcp-port", "0", ...extra], "CHOPIN_READY", env);
}
