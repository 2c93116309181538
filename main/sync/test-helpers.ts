/**
 * Shared by the sync tests: temp dirs, waiting for a condition with a deadline (never a fixed sleep), and a relay plus
 * client Repos wired the way the app core wires them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Repo, type DocumentId, type PeerId } from "@automerge/automerge-repo";
import { SqliteStorageAdapter } from "../../shared/node/sqlite-storage-adapter.js";
import { startRelay, type RunningRelay } from "../../sync-relay/server.js";
import { RelayConnection } from "./relay-connection.js";
import { waitFor } from "../../shared/wait-for.js";
import { afterEach } from "vitest";

export function tempDir(prefix = "chopin-sync-"): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * A test file's cleanups, run newest first after each test, and temp dirs removed with them: what the process-level
 * tests that start relays and cores in temp dirs each wrote for themselves. Call once at the file's top level.
 */
export function cleanupsAfterEach(): { cleanups: Array<() => Promise<void> | void>; dir(prefix: string): string } {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });
  return {
    cleanups,
    dir(prefix) {
      const made = tempDir(prefix);
      cleanups.push(() => made.remove());
      return made.path;
    },
  };
}

/** Resolves once the relay holds `documentId` loaded and ready (a client's create has reached it). */
export async function relayHolds(relay: RunningRelay, documentId: string): Promise<void> {
  await waitFor(() => relay.repo.handles[documentId as DocumentId]?.isReady() ?? false, "relay has the document");
}

export interface TestClient {
  repo: Repo;
  connection: RelayConnection;
  storage: SqliteStorageAdapter;
  /** Documents this client keeps private: never announced or given to relay peers. */
  privateDocs: Set<string>;
  close(): Promise<void>;
}

/** A client Repo with SQLite storage and the relay-peer-aware shareConfig the core uses (sample of it). */
export function startClient(opts: { url: string; token: string; peerId: string; dbFile: string; fastPath?: boolean }): TestClient {
  const connection = new RelayConnection({ url: opts.url, token: opts.token, peerId: opts.peerId, minBackoffMs: 20, maxBackoffMs: 200 });
  const storage = new SqliteStorageAdapter(opts.dbFile);
  const syncStates = trackSyncStateSaves(storage);
  const privateDocs = new Set<string>();
  const allowed = async (peerId: PeerId, documentId?: DocumentId) =>
    !(connection.isRelayPeer(peerId) && documentId !== undefined && privateDocs.has(documentId));
  const repo = new Repo({
    storage,
    network: [connection.adapter],
    peerId: opts.peerId as PeerId,
    shareConfig: { announce: allowed, access: allowed },
  });
  syncStates.watch(repo);
  // As the app core does: every sync test runs with the change fast path unless it asks otherwise.
  if (opts.fastPath !== false) connection.attachRepo(repo);
  return {
    repo,
    connection,
    storage,
    privateDocs,
    close: async () => {
      await connection.close();
      // repo.shutdown() would throw on handles that are not ready; flush the ready ones.
      await repo.flush(Object.values(repo.handles).filter((h) => h.isReady()).map((h) => h.documentId));
      // A flushed document's queued throttled save finds nothing new; a queued sync-state save still writes, and
      // would hit a closed database (an unhandled rejection), so the database closes only once those have landed.
      await waitFor(() => syncStates.pending.size === 0, "the Repo's queued sync-state saves reach storage");
      storage.close();
    },
  };
}

/**
 * Which remote storage ids have a sync-state save queued in the Repo but not yet written. The Repo keeps one
 * throttled save per remote storage id (saveDebounceRate) that always writes the newest state and cancels older
 * queued ones, and a throttled save writes synchronously when its timer fires, so a write for a storage id after its
 * newest "sync-state" event is that event's save. The Repo skips peers with no storage id or ephemeral ones; so
 * does this.
 */
function trackSyncStateSaves(storage: SqliteStorageAdapter): { pending: Set<string>; watch(repo: Repo): void } {
  const pending = new Set<string>();
  const save = storage.save.bind(storage);
  storage.save = async (key, data) => {
    // Key shape written by automerge-repo's StorageSubsystem.saveSyncState: [documentId, "sync-state", storageId].
    const saved = save(key, data);
    if (key.length === 3 && key[1] === "sync-state") pending.delete(key[2]!);
    return saved;
  };
  return {
    pending,
    watch(repo) {
      // Registered after the Repo's own listener (its constructor), so it sees the metadata the Repo just used.
      repo.synchronizer.on("sync-state", ({ peerId }) => {
        const meta = repo.peerMetadataByPeerId[peerId];
        if (meta?.storageId && !meta.isEphemeral) pending.add(meta.storageId);
      });
    },
  };
}

export interface RelayFixture {
  dir: { path: string; remove(): void };
  relay: RunningRelay;
  /** Relay tokens of the users alice and bob. */
  tokens: Record<string, string>;
}

/** A fresh relay in its own temp folder with users alice and bob. */
export async function setUpRelay(prefix: string): Promise<RelayFixture> {
  const dir = tempDir(prefix);
  const relay = await startRelay({ dataDir: join(dir.path, "relay") });
  return { dir, relay, tokens: { alice: relay.users.add("alice").token, bob: relay.users.add("bob").token } };
}

/** Closes the clients a test started, then the relay, then removes the folder. */
export async function tearDownRelay(fixture: RelayFixture, clients: TestClient[]): Promise<void> {
  for (const c of clients.splice(0)) await c.close();
  await fixture.relay.close();
  fixture.dir.remove();
}
