/**
 * An MCP write whose save fails (a full disk) is applied in memory all the same. Its retry with the same key must save
 * that write, not make it again: a retried create_document used to make a second plan, and a retried update_document
 * was refused 'revision-conflict' against its own edit. The disk is a real Repo over storage that throws what
 * better-sqlite3 throws on a full disk, behind the core's save guard, as in the app.
 */
import { afterEach, describe, expect, it } from "vitest";
import { MAX_MCP_UNCONFIRMED_WRITES } from "../util/limits.js";
import { guardRepoSaves } from "../store/repo-save-guard.js";
import { FailingStorage, makeFixture, type Fixture } from "../documents/test-fixture.js";
import { ReplayLog } from "./replay.js";
import { callTool } from "./tools.js";

const fixtures: Fixture[] = [];
afterEach(async () => {
  for (const fx of fixtures.splice(0)) await fx.close().catch(() => undefined);
});

async function fullDiskCore(maxUnconfirmed?: number) {
  const storage = new FailingStorage();
  const fx = await makeFixture({ storage });
  fixtures.push(fx);
  guardRepoSaves(fx.repo);
  const replays = new ReplayLog(fx.db, Date.now, maxUnconfirmed);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await callTool(name, args, { documents: fx.service, replays, clientName: "agent" });
    return JSON.parse((result.content[0] as { text: string }).text);
  };
  return { fx, storage, replays, call };
}

describe("an MCP write whose save failed, retried with the same key", () => {
  it("create_document: the retry saves the plan it made, and makes no second one", async () => {
    const { storage, replays, call } = await fullDiskCore();
    const args = { idempotencyKey: "c1", title: "Disk full", markdown: "# kept\n" };
    storage.failing = true;
    expect((await call("create_document", args)).error).toMatchObject({ code: "storage-failure", message: expect.stringContaining("disk is full") });
    // Still full: refused again, and still nothing made twice.
    expect((await call("create_document", args)).error.code).toBe("storage-failure");
    expect(replays.unconfirmedCount).toBe(1);
    storage.failing = false;
    const created = await call("create_document", args);
    expect(created.status).toBe("created");
    expect((await call("list_documents", {})).documents.map((d: { id: string }) => d.id)).toEqual([created.document.id]);
    expect(replays.unconfirmedCount).toBe(0);
    expect(storage.data.size).toBeGreaterThan(0);
    expect((await call("create_document", args)).status).toBe("replayed");
  });

  it("update_document: the retry answers the revision of its own edit, which is applied once and saved", async () => {
    const { fx, storage, call } = await fullDiskCore();
    const created = await call("create_document", { idempotencyKey: "c", title: "Plan", markdown: "v0\n" });
    const id = created.document.id;
    const args = { id, revision: created.document.revision, markdown: "v0\nappended once\n", idempotencyKey: "u1" };
    const changes = async () => (await fx.service.listVersions(id)).reduce((sum, v) => sum + v.changeCount, 0);
    const before = await changes();
    storage.failing = true;
    expect((await call("update_document", args)).error.code).toBe("storage-failure");
    storage.failing = false;
    const updated = await call("update_document", args);
    expect(updated).toMatchObject({ status: "updated", id });
    const read = await call("read_document", { id });
    expect(read).toMatchObject({ markdown: "v0\nappended once\n", revision: updated.revision });
    expect(await changes()).toBe(before + 1);
  });

  it("the same key with other input is still refused 'idempotency-conflict', though nothing was recorded", async () => {
    const { storage, call } = await fullDiskCore();
    storage.failing = true;
    await call("create_document", { idempotencyKey: "k", title: "One", markdown: "" });
    storage.failing = false;
    expect((await call("create_document", { idempotencyKey: "k", title: "Two", markdown: "" })).error.code).toBe("idempotency-conflict");
    expect((await call("list_documents", {})).documents.map((d: { title: string }) => d.title)).toEqual(["One"]);
  });

  it(`remembers at most MAX_MCP_UNCONFIRMED_WRITES (${MAX_MCP_UNCONFIRMED_WRITES}) unsaved writes, forgetting the oldest`, async () => {
    const { storage, replays, call } = await fullDiskCore(2);
    storage.failing = true;
    for (const key of ["a", "b", "c"]) await call("create_document", { idempotencyKey: key, title: key, markdown: "" });
    expect(replays.unconfirmedCount).toBe(2);
    storage.failing = false;
    // "a" was forgotten: its retry is a new request (the plan it made is saved with the others, a second one made).
    for (const key of ["b", "c", "a"]) expect((await call("create_document", { idempotencyKey: key, title: key, markdown: "" })).status).toBe("created");
    const titles = (await call("list_documents", {})).documents.map((d: { title: string }) => d.title).sort();
    expect(titles).toEqual(["a", "a", "b", "c"]);
  });
});
