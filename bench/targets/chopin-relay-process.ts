/**
 * Child process: our relay (sync-relay/server.ts startRelay) with a throwaway data directory and one bench user.
 * Uses startRelay directly rather than the CLI so the pid we meter is the relay itself (the tsx CLI forks).
 * Prints `BENCH_READY {"url","token","handle"}`; stops on SIGTERM and removes its data.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { announceReady, onTerminate } from "../lib/child.js";

const HANDLE = "bench";
// A computed specifier: the bench must type-check and run even before or after sync-relay/ changes shape.
const serverModule = "../../sync-relay/server.js";
const { startRelay } = (await import(serverModule)) as {
  startRelay(options: { dataDir: string; port?: number }): Promise<{
    url: string;
    users: { add(handle: string): { token: string } };
    close(): Promise<void>;
  }>;
};
const dataDir = mkdtempSync(join(tmpdir(), "chopin-bench-relay-"));
const relay = await startRelay({ dataDir, port: 0 });
const { token } = relay.users.add(HANDLE);
onTerminate(async () => {
  await relay.close();
  rmSync(dataDir, { recursive: true, force: true });
});
announceReady({ url: relay.url, token, handle: HANDLE });
