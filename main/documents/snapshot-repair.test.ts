/**
 * A crash before a plan's snapshot row was written (or rewritten after a rename) left body-text search blind to it,
 * or answering with the old title, until the plan was opened. At start, such rows are rewritten in the background.
 */
import { describe, expect, it } from "vitest";
import { fixturesClosedAfterEach, storageAtCrash, type Fixture } from "./test-fixture.js";
import { readSnapshot } from "./snapshot-store.js";

const fixture = fixturesClosedAfterEach();

/** Snapshot rows are never written on their timer here: every write the test sees is the repair's. */
const NEVER = 3_600_000;

const open = (options: Parameters<typeof fixture>[0] = {}) => fixture({ snapshotIntervalMs: NEVER, ...options });

/** A new core on storage as it was at the crash and the same database (SQLite writes are synchronous). */
function crashAndRestart(fx: Fixture): Promise<Fixture> {
  return open({ storage: storageAtCrash(fx), dir: fx.dir });
}

describe("snapshot rows after a crash", () => {
  it("a plan made just before the crash is found by its body text once the core is back", async () => {
    const fx = await open();
    const plan = await fx.service.createDocument({ title: "Alpha", markdown: "zebra body" });
    expect(readSnapshot(fx.db, plan.id)).toBeNull();
    const restarted = await crashAndRestart(fx);
    await restarted.service.repairSnapshots();
    expect(readSnapshot(restarted.db, plan.id)).toMatchObject({ title: "Alpha", text: "zebra body" });
    expect((await restarted.service.listDocuments({ query: "zebra" })).map((d) => d.id)).toEqual([plan.id]);
  });

  it("a rename just before the crash: the row takes the new title", async () => {
    const fx = await open({ snapshotIntervalMs: 0 });
    const plan = await fx.service.createDocument({ title: "Alpha", markdown: "text" });
    await fx.service.getContent(plan.id);
    fx.service.close();
    const first = await crashAndRestart(fx);
    await first.service.repairSnapshots();
    expect(readSnapshot(first.db, plan.id)?.title).toBe("Alpha");
    await first.service.renameDocument(plan.id, "Beta");
    const restarted = await crashAndRestart(first);
    await restarted.service.repairSnapshots();
    expect(readSnapshot(restarted.db, plan.id)?.title).toBe("Beta");
  });
});
