/**
 * A write failure while running (storage audit: a full disk under a running core ended the process on the next
 * keystroke, through automerge-repo's fire-and-forget background save). The process must live on, the edit must not
 * be reported saved (waitSaved refuses with a sentence the window shows as "Not saved yet"), and once the disk takes
 * writes again the same edit is saved.
 */
import { next as A } from "@automerge/automerge";
import type { StorageId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import type { ChopinError } from "../../shared/errors.js";
import { FailingStorage, makeFixture, type Fixture } from "../documents/test-fixture.js";
import { guardRepoSaves } from "./repo-save-guard.js";
import { waitFor } from "../../shared/wait-for.js";

let fx: Fixture | null = null;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
afterEach(async () => {
  process.off("unhandledRejection", onUnhandled);
  unhandled.length = 0;
  await fx?.close().catch(() => {});
  fx = null;
});

describe("guardRepoSaves", () => {
  it("keeps the process alive through a failed background save, refuses 'saved' until a write works, then saves", async () => {
    process.on("unhandledRejection", onUnhandled);
    const storage = new FailingStorage();
    fx = await makeFixture({ storage });
    const faults: ChopinError[] = [];
    const guard = guardRepoSaves(fx.repo, (failure) => faults.push(failure));
    const created = await fx.service.createDocument({ title: "Plan", markdown: "first" });
    await fx.service.persist(created.id);

    storage.failing = true;
    // The rename answers once on disk (document-service.ts): here it cannot be, and says so; it stays in memory.
    await expect(fx.service.renameDocument(created.id, "Renamed on a full disk")).rejects.toMatchObject({ code: "storage-failure" });
    // The Repo's throttled save runs on its own timer; once it has failed, let any rejection surface.
    await waitFor(() => storage.failedWrites > 0, "storage.failedWrites > 0");
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
    expect(faults).toHaveLength(1);
    expect(faults[0]).toMatchObject({ code: "storage-failure", message: expect.stringContaining("the disk is full") });
    expect(guard.failing?.code).toBe("storage-failure");

    const handle = await fx.repo.find(created.id as never);
    const heads = A.getHeads(handle.doc() as A.Doc<unknown>);
    await expect(fx.service.waitSaved(created.id, heads)).rejects.toMatchObject({
      code: "storage-failure",
      message: expect.stringContaining("not on disk yet"),
      details: expect.objectContaining({ sqliteCode: "SQLITE_FULL" }),
    });
    // A sync state is a cache: its failed write is said, never thrown.
    await expect(fx.repo.storageSubsystem!.saveSyncState(created.id as never, "s" as StorageId, A.initSyncState())).resolves.toBeUndefined();
    expect(faults).toHaveLength(1);

    storage.failing = false;
    await expect(fx.service.waitSaved(created.id, heads)).resolves.toMatchObject({ documentId: created.id });
    expect(guard.failing).toBeNull();
    const saved = await fx.repo.storageSubsystem!.loadDoc<{ title: string }>(created.id as never);
    expect(saved?.title).toBe("Renamed on a full disk");
    expect(unhandled).toEqual([]);
  });

  it("saves a write that failed once the disk takes writes again, with nobody asking for a flush", async () => {
    process.on("unhandledRejection", onUnhandled);
    const storage = new FailingStorage();
    fx = await makeFixture({ storage });
    guardRepoSaves(fx.repo, () => {}, 20);
    const created = await fx.service.createDocument({ title: "Plan", markdown: "first" });
    await fx.service.persist(created.id);

    storage.failing = true;
    // A change arriving from a peer (or a window's keystroke): only the Repo's own throttled save follows it.
    const handle = await fx.repo.find<{ title: string }>(created.id as never);
    handle.change((doc) => void (doc.title = "Written on a full disk"));
    await waitFor(() => storage.failedWrites > 0, "storage.failedWrites > 0");
    storage.failing = false;
    const saved = async () => (await fx!.repo.storageSubsystem!.loadDoc<{ title: string }>(created.id as never))?.title;
    await waitFor(async () => (await saved()) === "Written on a full disk", "(await saved()) === \"Written on a full disk\"");
    expect(unhandled).toEqual([]);
  });
});
