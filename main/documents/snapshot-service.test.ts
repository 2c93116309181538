import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { next as A } from "@automerge/automerge";
import { encodeHeads } from "@automerge/automerge-repo";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import { deleteSnapshot, readSnapshot } from "./snapshot-store.js";
import { MAX_SAVED_DOCUMENT_BYTES } from "../util/limits.js";
import { makeFixture, type Fixture } from "./test-fixture.js";
import { waitFor } from "../../shared/wait-for.js";

const fixtures: Fixture[] = [];
afterEach(async () => {
  for (const f of fixtures.splice(0)) await f.close();
});
async function fixture(options: Parameters<typeof makeFixture>[0] = {}): Promise<Fixture> {
  const f = await makeFixture({ snapshotIntervalMs: 20, ...options });
  fixtures.push(f);
  return f;
}
const sorted = (heads: string[]) => [...heads].sort();

describe("document snapshots through the document service", () => {
  it("follows the document's text, title and heads after each edit", async () => {
    const fx = await fixture();
    const { id } = await fx.service.createDocument({ title: "Plan", markdown: "one" });
    const handle = await fx.repo.find<PlanDocument>(id as never);
    await waitFor(async () => (await fx.service.openSnapshot(id))?.markdown === "one", "(await fx.service.openSnapshot(id))?.markdown === \"one\"");
    // An edit as the renderer's replica makes it: a plain change on the core's handle.
    handle.change((d) => A.splice(d, ["text"], 3, 0, " two"));
    await fx.service.renameDocument(id, "Plan B");
    const snapshot = (await waitFor(async () => {
      const s = await fx.service.openSnapshot(id);
      return s?.markdown === "one two" && s.title === "Plan B" ? s : null;
    }, "the condition in the test"))!;
    expect(snapshot.id).toBe(id);
    expect(sorted(snapshot.heads)).toEqual(sorted(encodeHeads(A.getHeads(handle.doc()))));
    expect(sorted(snapshot.heads)).toEqual(sorted(handle.heads()));
  });

  it("close writes the pending snapshot, and it is there after a restart before anything loads", async () => {
    const first = await makeFixture({ snapshotIntervalMs: 60_000 });
    const { id } = await first.service.createDocument({ title: "Kept", markdown: "# Body" });
    const handle = await first.repo.find<PlanDocument>(id as never);
    handle.change((d) => A.splice(d, ["text"], 6, 0, " text"));
    const heads = encodeHeads(A.getHeads(handle.doc()));
    // The interval is far away: only close() can have written it.
    await first.repo.flush();
    first.service.close();
    const again = await fixture({ storage: first.storage, dir: first.dir });
    const snapshot = await again.service.openSnapshot(id);
    expect(snapshot).toEqual({ id, title: "Kept", markdown: "# Body text", heads: expect.any(Array) });
    expect(sorted(snapshot!.heads)).toEqual(sorted(heads));
    expect(again.repo.handles[id as never]).toBeUndefined();
    await first.repo.shutdown();
    first.db.close();
  });

  it("gives a plan made moments ago, before any snapshot is stored, from the loaded document: a window can write at once", async () => {
    const fx = await fixture({ snapshotIntervalMs: 60_000 });
    const { id } = await fx.service.createDocument({ title: "Fresh", markdown: "# Start" });
    expect(readSnapshot(fx.db, id as never)).toBeNull();
    const handle = await fx.repo.find<PlanDocument>(id as never);
    const snapshot = await fx.service.openSnapshot(id);
    expect(snapshot).toEqual({ id, title: "Fresh", markdown: "# Start", heads: expect.any(Array) });
    expect(sorted(snapshot!.heads)).toEqual(sorted(handle.heads()));
  });

  it("unknown ids give null, malformed ids a typed refusal", async () => {
    const fx = await fixture();
    const { id } = await fx.service.createDocument({});
    await fx.service.deleteDocument(id).catch(() => undefined);
    const other = await makeFixture();
    const { id: elsewhere } = await other.service.createDocument({});
    await other.close();
    await expect(fx.service.openSnapshot(elsewhere)).resolves.toBeNull();
    await expect(fx.service.openSnapshot("not an id")).rejects.toMatchObject({ code: "invalid-input" });
    await expect(fx.service.openSnapshot(42 as never)).rejects.toMatchObject({ code: "invalid-input" });
  });

  it("a document loaded without a row gets one; deleting a document deletes its row", async () => {
    const fx = await fixture();
    const { id } = await fx.service.createDocument({ title: "T", markdown: "x" });
    await waitFor(() => readSnapshot(fx.db, id), "readSnapshot(fx.db, id)");
    deleteSnapshot(fx.db, id);
    await fx.service.getDocument(id);
    await waitFor(() => readSnapshot(fx.db, id), "readSnapshot(fx.db, id)");
    await fx.service.archiveDocument(id);
    await fx.service.deleteDocument(id);
    expect(readSnapshot(fx.db, id)).toBeNull();
    await expect(fx.service.openSnapshot(id)).resolves.toBeNull();
  });
});

describe("importDocument", () => {
  it("adds an older draft as a plan, lists it and snapshots it", async () => {
    const fx = await fixture();
    const draft = A.save(A.from({ title: "Imported", text: "from elsewhere" }));
    const detail = await fx.service.importDocument(draft);
    expect(detail).toMatchObject({ title: "Imported", shared: false });
    expect((await fx.service.listDocuments()).map((d) => d.id)).toContain(detail.id);
    expect((await fx.service.getContent(detail.id)).markdown).toBe("from elsewhere");
    const snapshot = await waitFor(() => fx.service.openSnapshot(detail.id), "fx.service.openSnapshot(detail.id)");
    expect(snapshot!.markdown).toBe("from elsewhere");
  });

  it("refuses bytes that are not a plan and keeps nothing", async () => {
    const fx = await fixture();
    const before = Object.keys(fx.repo.handles).length;
    await expect(fx.service.importDocument(A.save(A.from({ items: [1] })))).rejects.toMatchObject({ code: "invalid-document" });
    await expect(fx.service.importDocument(new Uint8Array([1, 2, 3]))).rejects.toMatchObject({ code: "invalid-document" });
    expect(await fx.service.listDocuments()).toEqual([]);
    expect(Object.values(fx.repo.handles).filter((h) => h.isReady()).length).toBeLessThanOrEqual(before);
  });
});

describe("readSavedDocument", () => {
  it("hands over the stored chunks, which load to the stored state without the core loading anything", async () => {
    const dir = mkdtempSync(join(tmpdir(), "chopin-saved-"));
    try {
      const first = await makeFixture({ dir });
      const { id } = await first.service.createDocument({ title: "T", markdown: "stored text" });
      await first.repo.flush();
      const heads = A.getHeads((await first.repo.find<PlanDocument>(id as never)).doc());
      await first.close();
      const fx = await makeFixture({ dir, storage: first.storage });
      try {
        const saved = await fx.service.readSavedDocument(id);
        expect(saved).toEqual(expect.any(String));
        const loaded = A.load<PlanDocument>(Buffer.from(saved!, "base64"));
        expect(loaded.text).toBe("stored text");
        expect(sorted(A.getHeads(loaded))).toEqual(sorted(heads));
        expect(fx.repo.handles[id as never]).toBeUndefined();
      } finally {
        await fx.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("null for unlisted ids and the indexes; a typed refusal for malformed ids", async () => {
    const fx = await fixture();
    await expect(fx.service.readSavedDocument(fx.service.localIndexId)).resolves.toBeNull();
    const other = await makeFixture();
    const { id: elsewhere } = await other.service.createDocument({});
    await other.close();
    await expect(fx.service.readSavedDocument(elsewhere)).resolves.toBeNull();
    await expect(fx.service.readSavedDocument("nope")).rejects.toMatchObject({ code: "invalid-input" });
  });

  it(`hands over a document of exactly MAX_SAVED_DOCUMENT_BYTES stored bytes, not one byte more`, async () => {
    const fx = await fixture();
    const { id } = await fx.service.createDocument({ title: "T" });
    await fx.repo.flush();
    const storedBytes = () =>
      [...fx.storage.data.entries()].filter(([k]) => k.startsWith(`${id}/`)).reduce((n, [, v]) => n + v.byteLength, 0);
    // One extra chunk of chosen size places the total at the bound (readSavedDocument measures, it does not parse).
    const pad = (n: number) => fx.storage.data.set(`${id}/incremental/pad`, new Uint8Array(n));
    const base = storedBytes();
    pad(MAX_SAVED_DOCUMENT_BYTES - base);
    expect(storedBytes()).toBe(MAX_SAVED_DOCUMENT_BYTES);
    expect(Buffer.from((await fx.service.readSavedDocument(id))!, "base64").byteLength).toBe(MAX_SAVED_DOCUMENT_BYTES);
    pad(MAX_SAVED_DOCUMENT_BYTES - base + 1);
    expect(storedBytes()).toBe(MAX_SAVED_DOCUMENT_BYTES + 1);
    await expect(fx.service.readSavedDocument(id)).resolves.toBeNull();
    fx.storage.data.delete(`${id}/incremental/pad`);
  });
});
