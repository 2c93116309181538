/**
 * Test support for the document service (imported only by *.test.ts): a real Repo with no network, an in-memory
 * storage adapter that counts saves, a real SQLite database in a temp folder, and a poll-with-deadline helper.
 */
import { afterEach } from "vitest";
import { Repo, type Chunk, type StorageAdapterInterface, type StorageKey } from "@automerge/automerge-repo";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChopinEvents } from "../../shared/api.js";
import { TypedEmitter } from "../util/typed-emitter.js";
import { openLocalDb, type LocalDb } from "../store/local-db.js";
import { DocumentService, type DocumentServiceOptions } from "./document-service.js";

export class MemoryStorage implements StorageAdapterInterface {
  readonly data = new Map<string, Uint8Array>();
  saves = 0;
  async load(key: StorageKey) {
    return this.data.get(key.join("/"));
  }
  async save(key: StorageKey, value: Uint8Array) {
    this.saves += 1;
    this.data.set(key.join("/"), value);
  }
  async remove(key: StorageKey) {
    this.data.delete(key.join("/"));
  }
  async loadRange(prefix: StorageKey): Promise<Chunk[]> {
    const start = prefix.join("/");
    return [...this.data.entries()]
      .filter(([k]) => k === start || k.startsWith(`${start}/`))
      .map(([k, data]) => ({ key: k.split("/"), data }));
  }
  async removeRange(prefix: StorageKey) {
    for (const chunk of await this.loadRange(prefix)) this.data.delete(chunk.key.join("/"));
  }
}

/** Storage whose writes throw what better-sqlite3 throws on a full disk, while `failing` is set. */
export class FailingStorage extends MemoryStorage {
  failing = false;
  failedWrites = 0;
  override async save(key: StorageKey, value: Uint8Array) {
    if (this.failing) {
      this.failedWrites += 1;
      throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
    }
    await super.save(key, value);
  }
}

export interface Fixture {
  repo: Repo;
  db: LocalDb;
  dir: string;
  storage: MemoryStorage;
  events: TypedEmitter<ChopinEvents>;
  service: DocumentService;
  clock: { now: number };
  name: { value: string };
  changed: string[][];
  close(): Promise<void>;
}

export async function makeFixture(
  options: {
    storage?: MemoryStorage;
    dir?: string;
    waitSavedTimeoutMs?: number;
    snapshotIntervalMs?: number;
    storageRetryMs?: number;
    onStorageFault?: DocumentServiceOptions["onStorageFault"];
    /** Called with the fixture's database, once it is open. */
    setAside?: (db: LocalDb, documentId: string) => void;
    /** The relay address shares belong to (DocumentService.setRelay); none by default. */
    relayUrl?: string;
    /** DocumentServiceOptions of the same names. */
    teamReachable?: () => boolean;
    chatPerson?: () => string;
    arrivalWaitMs?: number;
    arrivalRetryMs?: number;
    /** Tells the service what storage holds (DocumentServiceOptions.holds), as the core does; default: nothing. */
    holdsFromStorage?: boolean;
  } = {},
): Promise<Fixture> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "chopin-docs-"));
  const storage = options.storage ?? new MemoryStorage();
  const repo = new Repo({ storage, network: [] });
  const db = openLocalDb(dir);
  const events = new TypedEmitter<ChopinEvents>();
  const clock = { now: Date.UTC(2026, 0, 1) };
  const name = { value: "Ada" };
  const changed: string[][] = [];
  events.on("documents-changed", ({ ids }) => changed.push(ids));
  const service = await DocumentService.open({
    repo,
    db,
    events,
    displayName: () => name.value,
    now: () => clock.now,
    waitSavedTimeoutMs: options.waitSavedTimeoutMs,
    snapshotIntervalMs: options.snapshotIntervalMs,
    storageRetryMs: options.storageRetryMs,
    chatPerson: options.chatPerson,
    onStorageFault: options.onStorageFault,
    setAside: options.setAside && ((documentId) => options.setAside!(db, documentId)),
    teamReachable: options.teamReachable,
    arrivalWaitMs: options.arrivalWaitMs,
    arrivalRetryMs: options.arrivalRetryMs,
    ...(options.holdsFromStorage ? { holds: (id: string) => [...storage.data.keys()].some((key) => key.startsWith(`${id}/`)) } : {}),
  });
  if (options.relayUrl !== undefined) service.setRelay(options.relayUrl);
  return {
    repo,
    db,
    dir,
    storage,
    events,
    service,
    clock,
    name,
    changed,
    async close() {
      service.close();
      await repo.shutdown();
      db.close();
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The relay address fixtures that share use (nothing listens there: the document layer only records it). */
export const TEST_RELAY_URL = "ws://relay.test";


/**
 * Fixtures a test file opens, closed after each test (newest first: a restarted core closes before the one whose
 * folder it shares). Call at the top of a test file.
 */
export function fixturesClosedAfterEach(): (options?: Parameters<typeof makeFixture>[0]) => Promise<Fixture> {
  const open: Fixture[] = [];
  afterEach(async () => {
    for (const fx of open.splice(0).reverse()) await fx.close();
  });
  return async (options) => {
    const fx = await makeFixture(options);
    open.push(fx);
    return fx;
  };
}

/** A copy of what `fx`'s storage holds now: a crash at this instant, before any save timer fires. */
export function storageAtCrash(fx: Fixture): MemoryStorage {
  const disk = new MemoryStorage();
  for (const [key, value] of fx.storage.data) disk.data.set(key, value);
  return disk;
}
