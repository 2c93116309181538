/**
 * Host-mode entry: runs the app core in plain Node and serves the UI on 127.0.0.1. `npm start` lands here when no
 * Electron binary is installed (or with --headless). Prints the address to open, and one `CHOPIN_READY {json}` line
 * that scripts and tests wait for. Bad options end the process with a sentence and exit code 2, never a stack trace;
 * a data folder another Chopin process already uses ends it with exit code 3 (main/host/exit-codes.ts).
 * With CHOPIN_GITHUB_TOKEN, READY comes once GitHub has answered about the token (bounded by the GitHub request
 * timeout), so a script or agent that waits for it knows whether it is signed in; a refused token is said on stderr
 * and the app runs signed out.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ChopinError } from "../shared/errors.js";
import { createAppCore } from "./core/app-core.js";
import { defaultDataDir } from "./store/app-data-dir.js";
import { describeCoreFailure } from "./store/startup-failure.js";
import { parseHostArgs } from "./host/cli-args.js";
import { hostCoreOptions } from "./host/core-options.js";
import { GITHUB_TOKEN_ENV } from "./github/github-config.js";
import { startFailureExitCode } from "./host/exit-codes.js";
import { startHostServer } from "./host/host-server.js";

const STATIC_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "renderer", "dist");

function openInBrowser(url: string): void {
  const command = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  try {
    spawn(command, [url], { detached: true, stdio: "ignore" }).on("error", () => {}).unref();
  } catch {
    // No desktop to open a browser on: the printed address is enough.
  }
}

/** The data folder this start uses, once known (a failure's sentence names it). */
let dataDirInUse: string | undefined;

async function main(): Promise<void> {
  const args = parseHostArgs(process.argv.slice(2));
  // Read once and gone from the environment: no child this process starts (a browser opener, the Planner's runtime)
  // inherits the token.
  delete process.env[GITHUB_TOKEN_ENV];
  if (!existsSync(join(STATIC_DIR, "index.html"))) {
    throw new ChopinError("not-found", `The UI is not built yet (${STATIC_DIR}). Run “npm run build:renderer” or use “npm start”.`);
  }
  const dataDir = args.dataDir ?? defaultDataDir();
  dataDirInUse = dataDir;
  const core = await createAppCore(hostCoreOptions(args, dataDir, (sentence) => console.error(`  Warning: ${sentence}`)));
  // A stable port keeps the page's origin, and with it the outbox of edits a tab kept while the core was down.
  const { server: host, changedFrom: uiPortChangedFrom } = await core.listenOnStablePort("ui", args.uiPort, (port) =>
    startHostServer({ core, staticDir: STATIC_DIR, port }),
  );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await host.close().catch(() => {});
    await core.close().catch(() => {});
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  console.log(`Chopin is running in host mode (no Electron window).`);
  console.log(`  Open:  ${host.url}`);
  console.log(`  Data:  ${dataDir}`);
  console.log(`  MCP:   ${core.mcp.url}  (agent config: ${core.mcp.configPath})`);
  if (uiPortChangedFrom !== null) {
    console.log(`  Note:  port ${uiPortChangedFrom}, used last time, was taken; text a tab at the old address kept while Chopin was stopped is saved when Chopin next runs on that port.`);
  }
  for (const note of core.startupNotes) console.log(`  Note:  ${note}`);
  if (core.mcp.portChangedFrom !== null) {
    console.log(`  Note:  port ${core.mcp.portChangedFrom}, used last time, was taken; agents set up with it need the address above.`);
  }
  if (args.githubToken !== null) {
    const auth = await core.gitHubSignInSettled();
    if (auth.state === "signed-in") console.log(`  GitHub: signed in as @${auth.login} with ${GITHUB_TOKEN_ENV} (held in memory only)`);
    else console.error(`  Warning: ${auth.lastError?.message ?? `${GITHUB_TOKEN_ENV} did not sign in to GitHub.`}`);
  }
  console.log(`CHOPIN_READY ${JSON.stringify({ url: host.url, port: host.port, secret: host.secret, mcpUrl: core.mcp.url, mcpPort: core.mcp.port, dataDir })}`);
  if (args.open) openInBrowser(host.url);
}

main().catch((error) => {
  const message = error instanceof ChopinError ? error.message : `Chopin could not start. ${describeCoreFailure(error, dataDirInUse)}`;
  console.error(message);
  process.exit(startFailureExitCode(error));
});
