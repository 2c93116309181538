/**
 * A plan whose stored chunks are garbage could never leave the list: delete asked for an archived plan, and archiving
 * writes to a document that cannot load. It must be deletable as it is, its bytes kept in chopin.db's damaged_chunks
 * table, every other plan untouched; a live plan that loads still needs archiving first.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAppCore } from "./app-core.js";
import { chunksOf, damagedPlanFolder, rows } from "./damaged-plan-fixture.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe("removing a damaged plan from this device", () => {
  it("deletes it unarchived, keeps its bytes in damaged_chunks, leaves the other plans; a live plan still needs archiving", async () => {
    const { dir, bad, good, garbage } = await damagedPlanFolder("chopin-damaged-removal-");
    cleanups.push(() => dir.remove());
    const goodChunks = chunksOf(dir.path, good.id);

    const core = await createAppCore({ dataDir: dir.path, mcpPort: 0 });
    cleanups.push(() => core.close());
    // A live plan that loads is still refused unarchived.
    await expect(core.api.deleteDocument(good.id)).rejects.toMatchObject({ code: "document-not-archived" });
    await expect(core.api.getDocument(bad.id)).rejects.toMatchObject({ code: "storage-failure" });

    await core.api.deleteDocument(bad.id);

    expect((await core.api.listDocuments({})).map((d) => d.title)).toEqual(["Fine"]);
    expect(await core.api.listDocuments({ archived: true })).toEqual([]);
    await expect(core.api.getDocument(bad.id)).rejects.toMatchObject({ code: "not-found" });
    expect((await core.api.getDocument(good.id)).title).toBe("Fine");
    await core.close();

    expect(chunksOf(dir.path, bad.id)).toEqual([]);
    const kept = rows<{ document_id: string; key: string; data: Buffer; set_aside_at: number }>(
      dir.path,
      "SELECT document_id, key, data, set_aside_at FROM damaged_chunks ORDER BY seq",
    );
    expect(kept.map((row) => ({ key: row.key.replaceAll("/", "\u001f"), data: row.data }))).toEqual(expect.arrayContaining(garbage));
    expect(kept.every((row) => row.document_id === bad.id && row.set_aside_at > 0)).toBe(true);
    expect(chunksOf(dir.path, good.id)).toEqual(goodChunks);

    // The next start lists only the good plan: the damaged one does not come back from storage or the index.
    const again = await createAppCore({ dataDir: dir.path, mcpPort: 0 });
    cleanups.push(() => again.close());
    expect((await again.api.listDocuments({})).map((d) => d.title)).toEqual(["Fine"]);
  });
});
