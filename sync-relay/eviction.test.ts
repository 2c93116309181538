/**
 * Relay memory stays bounded: 10,000 tiny documents imported into the relay's storage, each touched (loaded) through
 * its Repo, leave memory once idle; each still loads from storage afterwards with its content.
 */
import { join } from "node:path";
import { next as A } from "@automerge/automerge";
import { Repo, generateAutomergeUrl, parseAutomergeUrl, type DocumentId } from "@automerge/automerge-repo";
import type Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SqliteStorageAdapter } from "../shared/node/sqlite-storage-adapter.js";
import { RELAY_JOIN_TIMEOUT_MS, RELAY_KEEPALIVE_MS } from "../shared/limits.js";
import { RELAY_EVICT_SWEEP_MS, RELAY_IDLE_EVICT_MS, RELAY_MAX_LOADED_DOCUMENTS, RELAY_MIN_IDLE_EVICT_MS, RELAY_USER_POLL_MS } from "./limits.js";
import { DocumentEvictor } from "./eviction.js";
import { openRelayDb } from "./relay-db.js";
import { relayTimings, startRelay, type RunningRelay } from "./server.js";
import { tempDir } from "./test-wire.js";
import { waitFor } from "../shared/wait-for.js";

/** The brief: 10,000 documents. CHOPIN_EVICT_DOCS may lower it for a quick local run; the default is the real test. */
const DOCUMENTS = Number(process.env.CHOPIN_EVICT_DOCS ?? 10_000);
const BATCH = 500;

let dir: ReturnType<typeof tempDir>;
let relay: RunningRelay | null = null;

beforeEach(() => {
  dir = tempDir("chopin-relay-evict-");
});
afterEach(async () => {
  await relay?.close();
  relay = null;
  dir.remove();
});

/** Writes documents straight into the relay's chunk table in one transaction, as an import would. */
function importDocuments(dataDir: string, count: number): DocumentId[] {
  const db = openRelayDb(dataDir);
  const storage = new SqliteStorageAdapter(db);
  const ids: DocumentId[] = [];
  const insert = db.prepare("INSERT INTO automerge_chunks (key, data) VALUES (?, ?)");
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const { documentId } = parseAutomergeUrl(generateAutomergeUrl());
      const bytes = A.save(A.from({ n: i }));
      insert.run([documentId, "snapshot", `import-${i}`].join("\u001f"), Buffer.from(bytes));
      ids.push(documentId);
    }
  })();
  storage.close();
  db.close();
  return ids;
}

describe("eviction bounds", () => {
  it("the relay's timers default to their named bounds, and options override them", () => {
    expect(relayTimings({ dataDir: "x" })).toEqual({
      idleEvictMs: RELAY_IDLE_EVICT_MS,
      evictSweepMs: RELAY_EVICT_SWEEP_MS,
      userPollMs: RELAY_USER_POLL_MS,
      joinTimeoutMs: RELAY_JOIN_TIMEOUT_MS,
      keepAliveMs: RELAY_KEEPALIVE_MS,
    });
    const given = { idleEvictMs: 1, evictSweepMs: 2, userPollMs: 3, joinTimeoutMs: 4, keepAliveMs: 5 };
    expect(relayTimings({ dataDir: "x", ...given })).toEqual(given);
  });

  it("keeps a document idle for RELAY_IDLE_EVICT_MS - 1 ms and unloads it at RELAY_IDLE_EVICT_MS", async () => {
    const repo = new Repo({});
    let now = 1_000_000;
    const evictor = new DocumentEvictor(repo, { idleMs: RELAY_IDLE_EVICT_MS, sweepMs: RELAY_EVICT_SWEEP_MS, now: () => now });
    const handle = repo.create({ n: 1 });
    evictor.touch(handle.documentId);
    const touchedAt = now;
    now = touchedAt + RELAY_IDLE_EVICT_MS - 1;
    expect(await evictor.sweep()).toBe(0);
    expect(repo.handles[handle.documentId]).toBeDefined();
    now = touchedAt + RELAY_IDLE_EVICT_MS;
    expect(await evictor.sweep()).toBe(1);
    expect(repo.handles[handle.documentId]).toBeUndefined();
    await repo.shutdown();
  });

  it("past RELAY_MAX_LOADED_DOCUMENTS unloads the least recently touched idle for RELAY_MIN_IDLE_EVICT_MS, down to the cap", async () => {
    const repo = new Repo({});
    let now = 1_000_000;
    const evictor = new DocumentEvictor(repo, { idleMs: RELAY_IDLE_EVICT_MS, sweepMs: RELAY_EVICT_SWEEP_MS, now: () => now });
    const ids: string[] = [];
    for (let i = 0; i < RELAY_MAX_LOADED_DOCUMENTS + 3; i++) {
      const handle = repo.create({ n: i });
      evictor.touch(handle.documentId);
      ids.push(handle.documentId);
      now += 1;
    }
    // The newest three were touched less than RELAY_MIN_IDLE_EVICT_MS ago, the rest at least that long ago.
    now = 1_000_000 + RELAY_MAX_LOADED_DOCUMENTS + RELAY_MIN_IDLE_EVICT_MS - 1;
    expect(await evictor.sweep()).toBe(3);
    expect(Object.keys(repo.handles)).toHaveLength(RELAY_MAX_LOADED_DOCUMENTS);
    expect(ids.slice(0, 3).every((id) => repo.handles[id as DocumentId] === undefined)).toBe(true);
    // At the cap, nothing else goes before RELAY_IDLE_EVICT_MS.
    now += 1_000;
    expect(await evictor.sweep()).toBe(0);
    // Two more, touched just now: the two least recently touched older ones make room, not the new ones.
    const fresh = [0, 1].map((i) => repo.create({ n: -i }).documentId);
    for (const id of fresh) evictor.touch(id);
    expect(await evictor.sweep()).toBe(2);
    expect(ids.slice(3, 5).every((id) => repo.handles[id as DocumentId] === undefined)).toBe(true);
    expect(fresh.every((id) => repo.handles[id] !== undefined)).toBe(true);
    await repo.shutdown();
  });

  it("past RELAY_MAX_LOADED_DOCUMENTS keeps every document touched less than RELAY_MIN_IDLE_EVICT_MS ago", async () => {
    const repo = new Repo({});
    let now = 1_000_000;
    const evictor = new DocumentEvictor(repo, { idleMs: RELAY_IDLE_EVICT_MS, sweepMs: RELAY_EVICT_SWEEP_MS, now: () => now });
    for (let i = 0; i <= RELAY_MAX_LOADED_DOCUMENTS; i++) evictor.touch(repo.create({ n: i }).documentId);
    now += RELAY_MIN_IDLE_EVICT_MS - 1;
    expect(await evictor.sweep()).toBe(0);
    expect(Object.keys(repo.handles)).toHaveLength(RELAY_MAX_LOADED_DOCUMENTS + 1);
    await repo.shutdown();
  });

  it("frees an unloaded document's Automerge memory instead of leaving it to garbage collection", async () => {
    const repo = new Repo({});
    let now = 1_000_000;
    const evictor = new DocumentEvictor(repo, { idleMs: 10, sweepMs: RELAY_EVICT_SWEEP_MS, now: () => now, freeDelayMs: 0 });
    const handle = repo.create({ n: 1 });
    const doc = handle.doc();
    evictor.touch(handle.documentId);
    now += 10;
    expect(await evictor.sweep()).toBe(1);
    const freed = () => {
      try {
        A.getHeads(doc);
        return false;
      } catch {
        return true;
      }
    };
    await waitFor(freed, "the unloaded document freed");
    await repo.shutdown();
  });
});

/** The team's list stays loaded while the relay runs (team-deletions.ts listens to it): every other document goes. */
const TEAM_LIST = 1;

describe("relay document eviction", () => {
  it("keeps the loaded-document count bounded while 10,000 documents are touched", async () => {
    const dataDir = join(dir.path, "relay");
    const ids = importDocuments(dataDir, DOCUMENTS);
    relay = await startRelay({ dataDir, idleEvictMs: 250, evictSweepMs: 50 });
    const r = relay;

    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, r.loadedDocuments())), 5);
    try {
      for (let start = 0; start < ids.length; start += BATCH) {
        const batch = ids.slice(start, start + BATCH);
        // Each document is read as soon as it loads: the evictor may unload it again once it is idle.
        await Promise.all(
          batch.map(async (id, i) => expect((await r.repo.find<{ n: number }>(id)).doc().n).toBe(start + i)),
        );
        // Eviction keeps up: before the next batch, at most one batch (plus stragglers) is loaded.
        await waitFor(() => r.loadedDocuments() <= BATCH + TEAM_LIST, `eviction after batch at ${start}`, 60_000);
      }
    } finally {
      clearInterval(sampler);
    }
    expect(peak).toBeLessThanOrEqual(3 * BATCH);
    await waitFor(() => r.loadedDocuments() === TEAM_LIST, "every idle document evicted");
    expect(r.evictor.evicted).toBeGreaterThanOrEqual(DOCUMENTS);

    // Evicted documents load again from storage, content intact.
    for (const i of [0, Math.floor(DOCUMENTS / 3), DOCUMENTS - 1]) {
      expect((await r.repo.find<{ n: number }>(ids[i])).doc().n).toBe(i);
    }
  }, 600_000);

  it("never rewrites stored chunks when unloading (automerge-repo's removeFromCache would save an empty doc)", async () => {
    const dataDir = join(dir.path, "relay");
    const ids = importDocuments(dataDir, 3);
    const rows = (db: Database.Database) =>
      db.prepare("SELECT key, data FROM automerge_chunks WHERE key LIKE 'import-%' OR key IN (?, ?, ?) ORDER BY seq").all(
        ...ids.map((id, i) => [id, "snapshot", `import-${i}`].join("\u001f")),
      );
    const first = openRelayDb(dataDir);
    const before = rows(first);
    first.close();
    expect(before).toHaveLength(3);
    relay = await startRelay({ dataDir, idleEvictMs: 50, evictSweepMs: 10 });
    const r = relay;
    for (const id of ids) await r.repo.find(id);
    await waitFor(() => r.loadedDocuments() === TEAM_LIST, "all evicted");
    // close() lets every pending throttled save land before closing the database.
    await r.close();
    relay = null;
    const db = openRelayDb(dataDir);
    expect(rows(db)).toEqual(before);
    expect(db.prepare("SELECT count(*) AS n FROM automerge_chunks WHERE key LIKE ?").get(`${ids[0]}%`)).toEqual({ n: 1 });
    db.close();
  });

  it("flushes a changed document before unloading it, and drops never-created (unavailable) documents", async () => {
    relay = await startRelay({ dataDir: join(dir.path, "relay"), idleEvictMs: 50, evictSweepMs: 10 });
    const r = relay;
    const handle = r.repo.create<{ items: string[] }>({ items: [] });
    handle.change((d) => void d.items.push("kept"));
    const { documentId: missing } = parseAutomergeUrl(generateAutomergeUrl());
    await expect(r.repo.find(missing)).rejects.toThrow(/unavailable/);
    await waitFor(() => r.loadedDocuments() === TEAM_LIST, "both evicted");
    expect(r.repo.handles[r.teamIndexDocumentId]?.isReady()).toBe(true);
    expect((await r.repo.find<{ items: string[] }>(handle.documentId)).doc().items).toEqual(["kept"]);
  });
});
