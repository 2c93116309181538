/**
 * `npm run relay`: runs the relay (sync-relay/cli.ts under tsx) as a child tied to this launcher (child-lifetime.mjs),
 * so a SIGTERM sent to npm's pid, as a supervisor sends it, stops the relay gracefully (it flushes and frees its port)
 * on every platform: `exec` in the npm script would do it with sh, but cmd.exe, npm's shell on Windows, has no exec.
 */
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tieChildToLauncher } from "./child-lifetime.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
tieChildToLauncher(
  spawn(process.execPath, ["--import", "tsx", join(root, "sync-relay", "cli.ts"), ...process.argv.slice(2)], { stdio: "inherit" }),
);
