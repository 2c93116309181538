import { describe, expect, it } from "vitest";
import { fixturesClosedAfterEach, storageAtCrash, type Fixture, type MemoryStorage } from "../documents/test-fixture.js";
import { ReplayLog } from "./replay.js";
import { callTool } from "./tools.js";

/**
 * An agent acts on a write's answer as done, and a replay record says it happened: both must hold after a crash right
 * after the answer. The crash is simulated by copying storage the moment the call resolves (before automerge-repo's
 * save timer could fire) and opening a new core on that copy and the same database.
 */
const open = fixturesClosedAfterEach();

async function call(fx: Fixture, name: string, args: Record<string, unknown>): Promise<{ body: any; disk: MemoryStorage }> {
  const result = await callTool(name, args, { documents: fx.service, replays: new ReplayLog(fx.db), clientName: "agent" });
  const disk = storageAtCrash(fx);
  const text = (result.content[0] as { text: string }).text;
  return { body: JSON.parse(text), disk };
}

/** A new core on what storage held at the crash, sharing the database (SQLite writes are synchronous). */
function afterCrash(fx: Fixture, disk: MemoryStorage): Promise<Fixture> {
  return open({ storage: disk, dir: fx.dir });
}

describe("MCP writes are on disk when they answer", () => {
  it("create_document: the document and its index entry survive a crash right after the answer", async () => {
    const fx = await open();
    const args = { idempotencyKey: "crash-create", title: "Crash test", markdown: "# kept\n" };
    const { body, disk } = await call(fx, "create_document", args);
    expect(body.status).toBe("created");
    const restarted = await afterCrash(fx, disk);
    const read = await call(restarted, "read_document", { id: body.document.id });
    expect(read.body).toMatchObject({ id: body.document.id, title: "Crash test", markdown: "# kept\n" });
    const listed = await call(restarted, "list_documents", {});
    expect(listed.body.documents.map((d: { id: string }) => d.id)).toEqual([body.document.id]);
    expect((await call(restarted, "create_document", args)).body.status).toBe("replayed");
  });

  it("update_document, rename_document, archive_document: each answer means the change survives a crash", async () => {
    const fx = await open();
    const created = await call(fx, "create_document", { idempotencyKey: "base", title: "Base", markdown: "v0\n" });
    const id = created.body.document.id;
    const updated = await call(fx, "update_document", { id, revision: created.body.document.revision, markdown: "v1\n", idempotencyKey: "u1" });
    expect(updated.body.status).toBe("updated");
    let restarted = await afterCrash(fx, updated.disk);
    expect((await call(restarted, "read_document", { id })).body.markdown).toBe("v1\n");

    const renamed = await call(fx, "rename_document", { id, title: "Renamed" });
    restarted = await afterCrash(fx, renamed.disk);
    expect((await call(restarted, "read_document", { id })).body.title).toBe("Renamed");

    const archived = await call(fx, "archive_document", { id });
    restarted = await afterCrash(fx, archived.disk);
    expect((await call(restarted, "read_document", { id })).body.archivedAt).toEqual(expect.any(Number));
  });
});
