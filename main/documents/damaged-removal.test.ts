/**
 * Removing a damaged plan keeps its bytes in damaged_chunks first. On a database that cannot take them (a full disk)
 * the removal is refused as a 'storage-failure' saying nothing changed (storage audit: the raw SqliteError reached the
 * window as 'internal'), the plan stays listed, and the removal works once there is room.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fillDatabase } from "../store/full-database.js";
import type { LocalDb } from "../store/local-db.js";
import { makeFixture, MemoryStorage, type Fixture } from "./test-fixture.js";

let fx: Fixture | null = null;
let dir = "";
afterEach(async () => {
  await fx?.close();
  fx = null;
  rmSync(dir, { recursive: true, force: true });
});

/** What the app core's setAsideChunks does, over the fixture's in-memory chunks: copy into damaged_chunks, then drop. */
function setAsideInto(storage: MemoryStorage) {
  return (db: LocalDb, documentId: string) => {
    const chunks = [...storage.data].filter(([key]) => key.startsWith(`${documentId}/`));
    const insert = db.prepare("INSERT INTO damaged_chunks (document_id, key, data, set_aside_at) VALUES (?, ?, ?, 1)");
    db.transaction(() => chunks.forEach(([key, data]) => insert.run(documentId, key, Buffer.from(data))))();
    for (const [key] of chunks) storage.data.delete(key);
  };
}

describe("removing a damaged plan", () => {
  it("is refused as 'storage-failure' when its bytes cannot be kept (a full disk), the plan still listed; works once there is room", async () => {
    dir = mkdtempSync(join(tmpdir(), "chopin-damaged-"));
    const storage = new MemoryStorage();
    const first = await makeFixture({ storage, dir });
    const { id } = await first.service.createDocument({ title: "Damaged", markdown: "lost words" });
    await first.repo.flush();
    await first.close();
    for (const [key, data] of storage.data) if (key.startsWith(`${id}/`)) storage.data.set(key, randomBytes(data.length));

    fx = await makeFixture({ storage, dir, setAside: setAsideInto(storage) });
    await expect(fx.service.getDocument(id)).rejects.toMatchObject({ code: "storage-failure", details: { damaged: true } });
    const disk = fillDatabase(fx.db, ["damaged_chunks"]);
    await expect(fx.service.deleteDocument(id)).rejects.toMatchObject({
      code: "storage-failure",
      message: expect.stringContaining("Nothing was changed"),
      details: expect.objectContaining({ sqliteCode: "SQLITE_FULL" }),
    });
    expect((await fx.service.listDocuments()).map((d) => d.id)).toEqual([id]);
    expect([...storage.data.keys()].some((key) => key.startsWith(`${id}/`))).toBe(true);

    disk.free();
    await fx.service.deleteDocument(id);
    expect(await fx.service.listDocuments()).toEqual([]);
    expect((fx.db.prepare("SELECT count(*) AS n FROM damaged_chunks WHERE document_id = ?").get(id) as { n: number }).n).toBeGreaterThan(0);
  });
});
