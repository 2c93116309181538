/**
 * Writes to one plan that arrive together (a window and an agent, two windows) run one after the other, so each
 * one's checks hold when it changes the plan: a delete racing a restore never deletes the restored plan, an archive
 * racing a rename never leaves an archived plan renamed. A resolved delete is on disk: a crash right after it does
 * not bring the plan back as a list entry that no call can open or remove.
 */
import { describe, expect, it } from "vitest";
import { fixturesClosedAfterEach, storageAtCrash } from "./test-fixture.js";

const open = fixturesClosedAfterEach();

const settle = <T>(p: Promise<T>) => p.then((value) => ({ ok: true as const, value }), (error: { code?: string }) => ({ ok: false as const, code: error.code }));

/** A core with one archived plan, ready to be deleted or restored. */
async function archivedPlan() {
  const fx = await open();
  const plan = await fx.service.createDocument({ title: "Plan" });
  await fx.service.archiveDocument(plan.id);
  return { fx, plan };
}

describe("writes to one plan arriving together", () => {
  it("delete then restore: the delete wins whole, the restore is refused as not found", async () => {
    const { fx, plan } = await archivedPlan();
    const [deleted, restored] = await Promise.all([settle(fx.service.deleteDocument(plan.id)), settle(fx.service.restoreDocument(plan.id))]);
    expect(deleted.ok).toBe(true);
    expect(restored).toEqual({ ok: false, code: "not-found" });
    expect(await fx.service.listDocuments({ archived: false })).toEqual([]);
    expect(await fx.service.listDocuments({ archived: true })).toEqual([]);
  });

  it("restore then delete: the plan is restored and kept, the delete refused as not archived", async () => {
    const { fx, plan } = await archivedPlan();
    const [restored, deleted] = await Promise.all([settle(fx.service.restoreDocument(plan.id)), settle(fx.service.deleteDocument(plan.id))]);
    expect(restored.ok).toBe(true);
    expect(deleted).toEqual({ ok: false, code: "document-not-archived" });
    expect((await fx.service.getDocument(plan.id)).archivedAt).toBeNull();
  });

  it("archive then rename: the rename is refused, the archived plan keeps its title", async () => {
    const fx = await open();
    const plan = await fx.service.createDocument({ title: "Plan" });
    const [archived, renamed] = await Promise.all([settle(fx.service.archiveDocument(plan.id)), settle(fx.service.renameDocument(plan.id, "Renamed"))]);
    expect(archived.ok).toBe(true);
    expect(renamed).toEqual({ ok: false, code: "document-archived" });
    expect(await fx.service.getDocument(plan.id)).toMatchObject({ title: "Plan", archivedAt: expect.any(Number) });
  });

  it("the same plan named by its id and by its URL is one queue", async () => {
    const fx = await open();
    const plan = await fx.service.createDocument({ title: "Plan" });
    const [archived, renamed] = await Promise.all([settle(fx.service.archiveDocument(plan.url)), settle(fx.service.renameDocument(plan.id, "Renamed"))]);
    expect(archived.ok).toBe(true);
    expect(renamed).toEqual({ ok: false, code: "document-archived" });
  });
});

describe("a resolved delete", () => {
  it("is on disk: a crash right after it leaves no entry behind", async () => {
    const fx = await open();
    const plan = await fx.service.createDocument({ title: "To delete" });
    await fx.service.archiveDocument(plan.id);
    await fx.service.deleteDocument(plan.id);
    // The crash: storage as it is the moment the delete answered (before any save timer fires).
    const restarted = await open({ storage: storageAtCrash(fx), dir: fx.dir });
    expect(await restarted.service.listDocuments({ archived: true })).toEqual([]);
    expect(await restarted.service.listDocuments({ archived: false })).toEqual([]);
  });
});
