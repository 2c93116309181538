/**
 * `npm run relay` and `node scripts/relay.mjs`: runs the relay (sync-relay/cli.ts under tsx) as a child tied to this
 * launcher (child-lifetime.mjs): SIGTERM or SIGINT to the launcher is passed on, and the launcher exits only once the
 * relay has flushed and freed its port, which makes `node scripts/relay.mjs` the command for a supervisor or a
 * container. npm itself exits at once on SIGTERM (143) while the relay is still stopping (the launcher then sees its
 * parent gone and stops the relay gracefully), and ignores SIGINT sent to its pid alone.
 */
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tieChildToLauncher } from "./child-lifetime.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// Resolved from this checkout, not the current folder: `node /path/to/scripts/relay.mjs` works from anywhere (and a
// relative --data stays relative to where it was run).
const tsx = import.meta.resolve("tsx");
tieChildToLauncher(
  spawn(process.execPath, ["--import", tsx, join(root, "sync-relay", "cli.ts"), ...process.argv.slice(2)], { stdio: "inherit" }),
);
