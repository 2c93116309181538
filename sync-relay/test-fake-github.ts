/**
 * Test support: the fake GitHub (test-support/fake-github/cli.ts) in a process of its own, as a relay meets the real
 * one, for one test file (started before its tests, stopped after them), and the fake's control surface.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";

/** How long the fake may take to start (tsx compiles it first). */
const FAKE_GITHUB_START_MS = 30_000;

export interface FakeGitHubProcess {
  /** Its base URL (known once the file's tests run). */
  url(): string;
  /** Calls a control endpoint (`/_fake/<name>`) and answers its result. */
  control(name: string, body?: Record<string, unknown>, query?: string): Promise<unknown>;
}

/** Call at the top of a test file. */
export function useFakeGitHubProcess(): FakeGitHubProcess {
  let child: ChildProcess | null = null;
  let url = "";
  beforeAll(async () => {
    const root = fileURLToPath(new URL("../", import.meta.url));
    const started = spawn(process.execPath, ["--import", "tsx", "test-support/fake-github/cli.ts"], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    child = started;
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: started.stdout! }).once("line", resolve);
      started.once("exit", (code) => reject(new Error(`fake GitHub exited with ${code}`)));
    });
    url = (JSON.parse(line) as { url: string }).url;
  }, FAKE_GITHUB_START_MS);
  afterAll(() => {
    child?.kill("SIGTERM");
  });
  return {
    url: () => url,
    async control(name, body = {}, query = "") {
      const res = await fetch(`${url}/_fake/${name}${query}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`fake GitHub control ${name}: ${res.status}`);
      return ((await res.json()) as { result: unknown }).result;
    },
  };
}
