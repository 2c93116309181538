/**
 * The indexes' SQLite records (relay_shares, team_removals) on a database that refuses writes (storage audit:
 * every one of these threw a raw SqliteError, which the window got as 'internal', "not applied", after the plan had
 * already changed in memory; a teammate's removal threw out of a change listener, which ends the core).
 */
import type { WorkspaceIndex } from "../../shared/schema/workspace-index.js";
import type { ChopinError } from "../../shared/errors.js";
import { afterEach, describe, expect, it } from "vitest";
import { guardRepoSaves } from "../store/repo-save-guard.js";
import { fillDatabase, readOnlyDatabase } from "../store/full-database.js";
import { teamRemovalOf } from "../store/team-removals.js";
import { FailingStorage, makeFixture, TEST_RELAY_URL, type Fixture } from "./test-fixture.js";
import { newIndex, readEntries } from "./workspace-index.js";
import { waitFor } from "../../shared/wait-for.js";

let fx: Fixture | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

/** The ids this device's records share with the test relay (the packing rows of a full database are not). */
const listShared = (f: Fixture) => (f.db.prepare("SELECT document_id FROM relay_shares WHERE relay_url = ? ORDER BY document_id").all(TEST_RELAY_URL) as { document_id: string }[]).map((row) => row.document_id);

const NOTHING_CHANGED = { code: "storage-failure", message: expect.stringContaining("Nothing was changed") };

describe("the indexes on a database that refuses writes", () => {
  it("refuses a share whole, as 'storage-failure', and takes it once there is room", async () => {
    fx = await makeFixture({ relayUrl: TEST_RELAY_URL });
    const { id } = await fx.service.createDocument({ title: "Plan", shared: false });
    const disk = fillDatabase(fx.db, ["relay_shares"]);
    await expect(fx.service.shareDocument(id)).rejects.toMatchObject({ ...NOTHING_CHANGED, details: expect.objectContaining({ sqliteCode: "SQLITE_FULL" }) });
    expect(fx.service.isShared(id)).toBe(false);
    expect(listShared(fx)).toEqual([]);
    disk.free();
    await expect(fx.service.shareDocument(id)).resolves.toMatchObject({ shared: true });
    expect(listShared(fx)).toEqual([id]);
  });

  it("makes no plan at all when a new plan's share is refused: none listed, none left in memory", async () => {
    fx = await makeFixture({ relayUrl: TEST_RELAY_URL });
    const team = fx.repo.create<WorkspaceIndex>(newIndex("team"));
    await fx.service.setTeamIndex(team.documentId);
    const handlesBefore = Object.keys(fx.repo.handles).length;
    fillDatabase(fx.db, ["relay_shares"]);
    await expect(fx.service.createDocument({ title: "Shared plan", shared: true })).rejects.toMatchObject(NOTHING_CHANGED);
    expect(await fx.service.listDocuments()).toEqual([]);
    expect(readEntries(team).size).toBe(0);
    expect(Object.keys(fx.repo.handles)).toHaveLength(handlesBefore);
  });

  it("refuses a delete whose records cannot be forgotten (a read-only database): the plan stays listed and shared", async () => {
    fx = await makeFixture({ relayUrl: TEST_RELAY_URL });
    const { id } = await fx.service.createDocument({ title: "Plan", shared: true });
    await fx.service.archiveDocument(id);
    const database = readOnlyDatabase(fx.db);
    await expect(fx.service.deleteDocument(id)).rejects.toMatchObject({ ...NOTHING_CHANGED, message: expect.stringContaining("read-only") });
    expect((await fx.service.listDocuments({ archived: true })).map((d) => d.id)).toEqual([id]);
    expect(fx.service.isShared(id)).toBe(true);
    database.writable();
    await fx.service.deleteDocument(id);
    expect(await fx.service.listDocuments({ archived: true })).toEqual([]);
    expect(listShared(fx)).toEqual([]);
  });

  it("refuses a delete whose plan cannot be saved first, before it leaves any list; deletes it once there is room", async () => {
    const storage = new FailingStorage();
    fx = await makeFixture({ storage, relayUrl: TEST_RELAY_URL });
    guardRepoSaves(fx.repo);
    const { id } = await fx.service.createDocument({ title: "Plan" });
    await fx.service.archiveDocument(id);
    storage.failing = true;
    // A teammate's last edit arrives while the disk is full.
    const handle = await fx.repo.find<{ text: string }>(id as never);
    handle.change((doc) => void (doc.text = "their last words"));
    await expect(fx.service.deleteDocument(id)).rejects.toMatchObject({ code: "storage-failure" });
    // Half deleted, it was in no list and still stored, and nothing would ever save or delete it again.
    expect((await fx.service.listDocuments({ archived: true })).map((d) => d.id)).toEqual([id]);
    storage.failing = false;
    await fx.service.deleteDocument(id);
    expect(await fx.service.listDocuments({ archived: true })).toEqual([]);
    expect(await fx.repo.storageSubsystem!.loadDoc(id as never)).toBeNull();
  });

  it("takes a teammate's removal without throwing into the change, keeps the plan private, and records it once there is room", async () => {
    const faults: ChopinError[] = [];
    fx = await makeFixture({ storageRetryMs: 20, onStorageFault: (failure) => faults.push(failure), relayUrl: TEST_RELAY_URL });
    const team = fx.repo.create<WorkspaceIndex>(newIndex("team"));
    await fx.service.setTeamIndex(team.documentId);
    // A teammate's plan, known here only through the team index (as on a device that did not create it).
    const { id } = await fx.service.createDocument({ title: "Doomed plan", markdown: "their text", shared: true });
    (await fx.repo.find<WorkspaceIndex>(fx.service.localIndexId)).change((d) => void delete d.documents[id]);

    const disk = fillDatabase(fx.db, ["team_removals"]);
    // In the app this change arrives from the relay: a throw here went up the socket's message handler.
    expect(() => team.change((d) => void delete d.documents[id])).not.toThrow();
    const listed = await waitFor(async () => (await fx!.service.listDocuments()).find((d) => d.id === id), "(await fx!.service.listDocuments()).find((d) => d.id === id)");
    expect(listed!.shared).toBe(false);
    expect((await fx.service.getDocument(id)).leftTeamAt).toBeTypeOf("number");
    expect(faults).toMatchObject([{ code: "storage-failure", details: { sqliteCode: "SQLITE_FULL" } }]);
    // The sharing record is still on disk: neither an edit here nor a team reconcile may take it as a share and undo
    // the teammate's delete.
    await fx.service.renameDocument(id, "Kept here");
    await fx.service.setTeamIndex(team.documentId);
    expect(readEntries(team).has(id)).toBe(false);
    expect(fx.service.isShared(id)).toBe(false);

    disk.free();
    await waitFor(() => teamRemovalOf(fx!.db, id) !== null, "teamRemovalOf(fx!.db, id) !== null");
    expect(listShared(fx)).toEqual([]);
    expect(fx.service.isShared(id)).toBe(false);
    expect(faults).toHaveLength(1);
  });
});
