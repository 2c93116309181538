/**
 * child-lifetime.mjs with real processes: a launcher that ties a real child node process to itself, stopped the two
 * ways `npm start` is stopped (a signal to the launcher; its parent shell killed, as npm's SIGTERM leaves it).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { waitFor } from "../shared/wait-for.js";

let dir: string;
const leftovers: number[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "chopin-child-lifetime-"));
  // The child notes the signal that stopped it, then exits 0 as the core does after a graceful stop.
  writeFileSync(
    join(dir, "child.mjs"),
    `import { writeFileSync } from "node:fs";
     for (const s of ["SIGINT", "SIGTERM"]) process.on(s, () => { writeFileSync(process.argv[2], s); process.exit(0); });
     setInterval(() => {}, 1000);
     console.log("CHILD " + process.pid);`,
  );
  writeFileSync(
    join(dir, "launcher.mjs"),
    `import { spawn } from "node:child_process";
     import { tieChildToLauncher } from ${JSON.stringify(pathToFileURL(join(__dirname, "child-lifetime.mjs")).href)};
     const child = spawn(process.execPath, [${JSON.stringify(join(dir, "child.mjs"))}, ${JSON.stringify(join(dir, "stopped-by"))}], { stdio: "inherit" });
     tieChildToLauncher(child, { pollMs: 20 });
     console.log("LAUNCHER " + process.pid);`,
  );
});

afterEach(() => {
  for (const pid of leftovers.splice(0)) if (alive(pid)) process.kill(pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** Running (a zombie left for a parent that does not reap it counts as gone). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/** Starts `command`, waits until launcher and child printed their pids, and returns them. */
async function startLauncher(command: string, args: string[]): Promise<{ proc: ChildProcess; launcher: number; child: number; exited: () => { code: number | null } | null }> {
  const proc = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  let exit: { code: number | null } | null = null;
  proc.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  proc.on("exit", (code) => (exit = { code }));
  await waitFor(() => /LAUNCHER \d+/.test(out) && /CHILD \d+/.test(out), "launcher and child started");
  const launcher = Number(/LAUNCHER (\d+)/.exec(out)![1]);
  const child = Number(/CHILD (\d+)/.exec(out)![1]);
  leftovers.push(child, launcher);
  return { proc, launcher, child, exited: () => exit };
}

describe("tieChildToLauncher", () => {
  it("forwards SIGTERM and SIGINT to the child and exits with the child's status once it is gone", async () => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      rmSync(join(dir, "stopped-by"), { force: true });
      const run = await startLauncher(process.execPath, [join(dir, "launcher.mjs")]);
      run.proc.kill(signal);
      await waitFor(() => run.exited() !== null, "launcher exit");
      expect(run.exited()).toEqual({ code: 0 });
      expect(readFileSync(join(dir, "stopped-by"), "utf8")).toBe(signal);
      expect(alive(run.child)).toBe(false);
    }
  });

  it.skipIf(process.platform === "win32")("stops the child when the launcher's parent shell is killed (npm's SIGTERM reaches only sh)", async () => {
    const run = await startLauncher("sh", ["-c", `"${process.execPath}" "${join(dir, "launcher.mjs")}"`]);
    run.proc.kill("SIGTERM");
    await waitFor(() => existsSync(join(dir, "stopped-by")), "the child told to stop");
    expect(readFileSync(join(dir, "stopped-by"), "utf8")).toBe("SIGTERM");
    await waitFor(() => !alive(run.launcher) && !alive(run.child), "launcher and child gone");
  });
});
