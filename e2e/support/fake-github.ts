/**
 * Runs the fake GitHub (test-support/fake-github/cli.ts) as its own process for e2e tests, the way a real GitHub is
 * another machine: the app core reaches it only over HTTP, and the test drives it through its /_fake/ control
 * surface. The child is killed by stop(), and killed hard if the test process goes away first.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./processes.js";

export interface FakeGitHubProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export function startFakeGitHubProcess(timeoutMs = 60_000): Promise<FakeGitHubProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "test-support/fake-github/cli.ts")], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    process.off("exit", killOnExit);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the fake GitHub did not start within ${timeoutMs} ms:\n${out}`)), timeoutMs);
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (!line) return;
      clearTimeout(timer);
      resolve({ url: (JSON.parse(line) as { url: string }).url, child, stop });
    });
    child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the fake GitHub exited with ${code} before it was ready:\n${out}`));
    });
  });
}
