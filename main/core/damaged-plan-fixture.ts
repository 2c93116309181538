/**
 * For tests of a plan whose stored chunks are garbage (damaged-plan.test.ts, damaged-plan-removal.test.ts): a data
 * folder holding two plans written by a real core, "Damaged" with its chunk bytes overwritten by random bytes of the
 * same length while no core runs, and "Fine" untouched, as the storage audit damaged them.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect } from "vitest";
import { LOCAL_DB_FILE } from "../store/local-db.js";
import { tempDir } from "../sync/test-helpers.js";
import { createAppCore } from "./app-core.js";

export interface StoredChunk {
  key: string;
  data: Buffer;
}

/** Rows of the folder's chopin.db, read with a connection of their own. */
export function rows<T>(dir: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(join(dir, LOCAL_DB_FILE), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

export const chunksOf = (dir: string, id: string): StoredChunk[] =>
  rows<StoredChunk>(dir, "SELECT key, data FROM automerge_chunks WHERE key LIKE ? ORDER BY seq", `${id}\u001f%`);

/** The folder (the caller removes it), the two plans and the garbage now stored for "Damaged". */
export async function damagedPlanFolder(prefix: string): Promise<{
  dir: { path: string; remove(): void };
  bad: { id: string };
  good: { id: string };
  garbage: StoredChunk[];
}> {
  const dir = tempDir(prefix);
  const first = await createAppCore({ dataDir: dir.path, mcpPort: 0 });
  const bad = await first.api.createDocument({ title: "Damaged", markdown: "lost words" });
  const good = await first.api.createDocument({ title: "Fine", markdown: "kept words" });
  await first.close();

  const garbage = garbleChunks(dir.path, bad.id);
  return { dir, bad: { id: bad.id }, good: { id: good.id }, garbage };
}

/** Overwrites a plan's stored chunks with random bytes of the same length (no core may run on `dir`); the garbage. */
export function garbleChunks(dir: string, id: string): StoredChunk[] {
  const db = new Database(join(dir, LOCAL_DB_FILE));
  for (const row of chunksOf(dir, id)) db.prepare("UPDATE automerge_chunks SET data = ? WHERE key = ?").run(randomBytes(row.data.length), row.key);
  db.close();
  const garbage = chunksOf(dir, id);
  expect(garbage.length).toBeGreaterThan(0);
  return garbage;
}
