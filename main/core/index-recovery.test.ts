/**
 * A local index that does not load at start (robustness audit: a damaged chunk, or a settings value naming nothing)
 * is rebuilt from the plans in storage: every private plan is listed again and readable, the unreadable index's id
 * is kept, and the start says so. Before, an empty index replaced it and every private plan vanished for good.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { LOCAL_DB_FILE } from "../store/local-db.js";
import { LOCAL_INDEX_SETTING } from "../documents/indexes.js";
import { LOST_LOCAL_INDEX_SETTING } from "../documents/index-recovery.js";
import { tempDir } from "../sync/test-helpers.js";
import { createAppCore } from "./app-core.js";
import type { AppCore } from "./types.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function start(dataDir: string): Promise<AppCore> {
  const core = await createAppCore({ dataDir, mcpPort: 0 });
  cleanups.push(() => core.close());
  return core;
}

/** Three private plans (one archived), written and closed; returns their ids and the local index's id. */
async function dataDirWithPlans(): Promise<{ dir: string; ids: string[]; indexId: string }> {
  const dir = tempDir("chopin-index-recovery-");
  cleanups.push(() => dir.remove());
  const core = await createAppCore({ dataDir: dir.path, mcpPort: 0 });
  const ids: string[] = [];
  for (const title of ["Alpha", "Beta", "Gamma"]) ids.push((await core.api.createDocument({ title, markdown: `# ${title}\n` })).id);
  await core.api.archiveDocument(ids[2] as never);
  await core.close();
  const db = new Database(join(dir.path, LOCAL_DB_FILE));
  const indexId = (db.prepare("SELECT value FROM settings WHERE key = ?").get(LOCAL_INDEX_SETTING) as { value: string }).value;
  db.close();
  return { dir: dir.path, ids, indexId };
}

function editDb(dir: string, edit: (db: Database.Database) => void): void {
  const db = new Database(join(dir, LOCAL_DB_FILE));
  try {
    edit(db);
  } finally {
    db.close();
  }
}

async function expectAllListed(core: AppCore, ids: string[]): Promise<void> {
  const live = await core.api.listDocuments({});
  const archived = await core.api.listDocuments({ archived: true });
  expect(live.map((d) => d.title).sort()).toEqual(["Alpha", "Beta"]);
  expect(archived.map((d) => d.title)).toEqual(["Gamma"]);
  for (const id of ids) expect((await core.api.getDocument(id as never)).id).toBe(id);
}

describe("an unreadable local index", () => {
  it("whose every chunk is damaged is rebuilt from the stored plans; its id and chunks are kept, and the start says so", async () => {
    const { dir, ids, indexId } = await dataDirWithPlans();
    let damaged = 0;
    editDb(dir, (db) => {
      const rows = db.prepare("SELECT seq, data FROM automerge_chunks WHERE key LIKE ?").all(`${indexId}\u001f%`) as { seq: number; data: Buffer }[];
      for (const row of rows) {
        const bytes = Buffer.from(row.data);
        for (let i = 8; i < bytes.length; i++) bytes[i] ^= 0xff;
        db.prepare("UPDATE automerge_chunks SET data = ? WHERE seq = ?").run(bytes, row.seq);
        damaged++;
      }
    });
    expect(damaged).toBeGreaterThan(0);

    const core = await start(dir);
    await expectAllListed(core, ids);
    expect(core.startupNotes).toHaveLength(1);
    expect(core.startupNotes[0]).toContain("rebuilt from the plans in storage (3 plans found)");
    expect(core.startupNotes[0]).toContain(indexId);
    editDb(dir, (db) => {
      const setting = (key: string) => (db.prepare("SELECT value FROM settings WHERE key = ?").get(key) as { value: string } | undefined)?.value;
      expect(setting(LOST_LOCAL_INDEX_SETTING)).toBe(indexId);
      expect(setting(LOCAL_INDEX_SETTING)).not.toBe(indexId);
      expect((db.prepare("SELECT count(*) AS n FROM automerge_chunks WHERE key LIKE ?").get(`${indexId}\u001f%`) as { n: number }).n).toBe(damaged);
    });
  });

  it("named by a settings value that is not a document id is rebuilt the same way, and the next start needs no repair", async () => {
    const { dir, ids } = await dataDirWithPlans();
    editDb(dir, (db) => db.prepare("UPDATE settings SET value = ? WHERE key = ?").run("not-a-document-id", LOCAL_INDEX_SETTING));
    const core = await start(dir);
    await expectAllListed(core, ids);
    expect(core.startupNotes[0]).toContain("(3 plans found)");
    await core.close();
    cleanups.pop();

    const again = await start(dir);
    expect(again.startupNotes).toEqual([]);
    await expectAllListed(again, ids);
  });

  it("rebuilt while a plan is damaged too: the others are listed, the note counts the damaged one, and reading it says storage-failure", async () => {
    const { dir, ids, indexId } = await dataDirWithPlans();
    editDb(dir, (db) => {
      for (const id of [indexId, ids[1]]) {
        const rows = db.prepare("SELECT seq, data FROM automerge_chunks WHERE key LIKE ?").all(`${id}\u001f%`) as { seq: number; data: Buffer }[];
        for (const row of rows) db.prepare("UPDATE automerge_chunks SET data = ? WHERE seq = ?").run(Buffer.alloc(row.data.length, 0xff), row.seq);
      }
    });
    const core = await start(dir);
    expect(core.startupNotes[0]).toContain("(2 plans found). 1 stored document could not be read and stays unlisted in storage.");
    expect((await core.api.listDocuments({})).map((d) => d.title)).toEqual(["Alpha"]);
    expect((await core.api.getDocument(ids[0] as never)).title).toBe("Alpha");
  });

  it("a damaged plan the index lists is refused as storage-failure, not as gone", async () => {
    const { dir, ids } = await dataDirWithPlans();
    editDb(dir, (db) => {
      const rows = db.prepare("SELECT seq, data FROM automerge_chunks WHERE key LIKE ?").all(`${ids[0]}\u001f%`) as { seq: number; data: Buffer }[];
      for (const row of rows) db.prepare("UPDATE automerge_chunks SET data = ? WHERE seq = ?").run(Buffer.alloc(row.data.length, 0xff), row.seq);
    });
    const core = await start(dir);
    expect(core.startupNotes).toEqual([]);
    await expect(core.api.getDocument(ids[0] as never)).rejects.toMatchObject({ code: "storage-failure", message: expect.stringContaining("could not be read") });
    expect((await core.api.getDocument(ids[1] as never)).title).toBe("Beta");
  });

  it("a first start records a fresh index with nothing to say", async () => {
    const dir = tempDir("chopin-index-fresh-");
    cleanups.push(() => dir.remove());
    const core = await start(dir.path);
    expect(core.startupNotes).toEqual([]);
    expect(await core.api.listDocuments({})).toEqual([]);
  });
});
