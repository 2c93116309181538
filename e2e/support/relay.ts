/** Starts the real relay process on a given data folder and port, and adds users through its own CLI. */
import { runTs, startTs, type Started } from "./processes.js";

export interface RelayReady {
  url: string;
  port: number;
  teamIndexDocumentId: string;
}

export function startRelayProcess(dataDir: string, port: number): Promise<Started<RelayReady>> {
  return startTs<RelayReady>("sync-relay/cli.ts", ["--port", String(port), "--data", dataDir], "RELAY_READY");
}

/** `relay user add <handle>` prints the token alone on its last line. */
export async function addRelayUser(dataDir: string, handle: string): Promise<string> {
  const { code, stdout, stderr } = await runTs("sync-relay/cli.ts", ["user", "add", handle, "--data", dataDir]);
  if (code !== 0) throw new Error(`user add ${handle} failed (${code}): ${stderr}`);
  const lines = stdout.trim().split("\n");
  return lines[lines.length - 1].trim();
}

export async function revokeRelayUser(dataDir: string, handle: string): Promise<void> {
  const { code, stderr } = await runTs("sync-relay/cli.ts", ["user", "revoke", handle, "--data", dataDir]);
  if (code !== 0) throw new Error(`user revoke ${handle} failed (${code}): ${stderr}`);
}
