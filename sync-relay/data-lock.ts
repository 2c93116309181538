/**
 * One relay per data folder. Two relays on the same relay.sqlite both ran, each with its own in-memory copy of every
 * document and its own throttled saves and compactions over the same chunks, and clients split between them. The
 * relay therefore holds the folder lock (shared/node/folder-lock.ts) on a separate file, relay.lock, for as long as it
 * serves. relay.sqlite itself stays shared (WAL), because the CLI's user commands open it while the relay runs.
 *
 * What must stay true: a second relay on the folder fails before it opens relay.sqlite, with a sentence naming the
 * folder, and the first keeps serving; release() is what lets the next relay start (close() calls it last).
 */
import { join, resolve } from "node:path";
import { ChopinError } from "../shared/errors.js";
import { tryLockFolder, type FolderLock } from "../shared/node/folder-lock.js";
import { ensurePrivateDir } from "../shared/node/private-files.js";

export const RELAY_LOCK_FILE = "relay.lock";

export type DataLock = FolderLock;

export function lockDataFolder(dataDir: string): DataLock {
  ensurePrivateDir(dataDir);
  const lock = tryLockFolder(dataDir, RELAY_LOCK_FILE);
  if (lock) return lock;
  throw new ChopinError(
    "relay-unavailable",
    `Another relay is already serving ${resolve(dataDir)} (it holds ${RELAY_LOCK_FILE} there): stop that relay first, or choose another folder with --data (or CHOPIN_RELAY_DATA).`,
    { path: join(dataDir, RELAY_LOCK_FILE) },
  );
}
