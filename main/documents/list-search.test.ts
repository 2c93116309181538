import { afterEach, describe, expect, it } from "vitest";
import { next as A } from "@automerge/automerge";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import { MAX_SEARCH_QUERY_CHARS } from "../../shared/limits.js";
import { readSnapshot, writeSnapshot } from "./snapshot-store.js";
import { makeFixture, type Fixture } from "./test-fixture.js";
import { waitFor } from "../../shared/wait-for.js";

const fixtures: Fixture[] = [];
afterEach(async () => {
  for (const f of fixtures.splice(0)) await f.close();
});
async function fixture(snapshotIntervalMs = 20): Promise<Fixture> {
  const f = await makeFixture({ snapshotIntervalMs });
  fixtures.push(f);
  return f;
}
const ids = (list: { id: string }[]) => list.map((d) => d.id);

describe("listDocuments search", () => {
  it("finds a word from the body (any case) with a snippet; title matches carry none", async () => {
    const fx = await fixture();
    const body = await fx.service.createDocument({ title: "Launch", markdown: "# Goals\n\nMigrate the Billing service" });
    fx.clock.now += 1;
    const titled = await fx.service.createDocument({ title: "Billing notes", markdown: "other words" });
    await waitFor(() => readSnapshot(fx.db, body.id)?.text.includes("Billing"), "readSnapshot(fx.db, body.id)?.text.includes(\"Billing\")");

    const found = await fx.service.listDocuments({ query: "  BILLING " });
    expect(ids(found)).toEqual([titled.id, body.id]);
    expect(found[0]!.matchSnippet).toBeUndefined();
    expect(found[1]!.matchSnippet).toBe("# Goals Migrate the Billing service");
    expect(await fx.service.listDocuments({ query: "nowhere" })).toEqual([]);
    // Without a query, nothing carries a snippet.
    expect((await fx.service.listDocuments()).every((d) => d.matchSnippet === undefined)).toBe(true);
  });

  it("follows edits once the snapshot is written", async () => {
    const fx = await fixture();
    const { id } = await fx.service.createDocument({ title: "Plan", markdown: "one" });
    const handle = await fx.repo.find<PlanDocument>(id as never);
    handle.change((d) => A.splice(d, ["text"], 3, 0, " kiwi"));
    await waitFor(async () => ids(await fx.service.listDocuments({ query: "kiwi" })).includes(id), "ids(await fx.service.listDocuments({ query: \"kiwi\" })).includes(id)");
  });

  it("a document whose snapshot is stale (or not written yet) is still found by its current title", async () => {
    const fx = await fixture(60_000);
    const { id } = await fx.service.createDocument({ title: "Draft", markdown: "body" });
    // A row from before a rename: its title and text are old.
    writeSnapshot(fx.db, { documentId: id, heads: [], title: "Draft", text: "older body", savedAt: 1 });
    await fx.service.renameDocument(id, "Quarterly review");
    expect(ids(await fx.service.listDocuments({ query: "quarterly" }))).toEqual([id]);
    expect(ids(await fx.service.listDocuments({ query: "draft" }))).toEqual([]);
    const none = await fx.service.createDocument({ title: "Quarterly budget", markdown: "x" });
    expect(readSnapshot(fx.db, none.id)).toBeNull();
    expect(ids(await fx.service.listDocuments({ query: "QUARTERLY" })).sort()).toEqual([id, none.id].sort());
  });

  it("archived filtering applies to body matches", async () => {
    const fx = await fixture();
    const live = await fx.service.createDocument({ title: "Live", markdown: "the kiwi list" });
    const gone = await fx.service.createDocument({ title: "Old", markdown: "a kiwi too" });
    await waitFor(() => readSnapshot(fx.db, live.id) && readSnapshot(fx.db, gone.id), "readSnapshot(fx.db, live.id) && readSnapshot(fx.db, gone.id)");
    await fx.service.archiveDocument(gone.id);
    expect(ids(await fx.service.listDocuments({ query: "kiwi" }))).toEqual([live.id]);
    expect(ids(await fx.service.listDocuments({ query: "kiwi", archived: true }))).toEqual([gone.id]);
  });

  it("a deleted document's text is not found, even if a row were left behind", async () => {
    const fx = await fixture();
    const { id } = await fx.service.createDocument({ title: "Temp", markdown: "kiwi" });
    await waitFor(() => readSnapshot(fx.db, id), "readSnapshot(fx.db, id)");
    await fx.service.archiveDocument(id);
    await fx.service.deleteDocument(id);
    writeSnapshot(fx.db, { documentId: id, heads: [], title: "Temp", text: "kiwi", savedAt: 1 });
    expect(await fx.service.listDocuments({ query: "kiwi" })).toEqual([]);
    expect(await fx.service.listDocuments({ query: "kiwi", archived: true })).toEqual([]);
  });

  it("a body query of MAX_SEARCH_QUERY_CHARS is searched; one more is refused", async () => {
    const fx = await fixture();
    const phrase = "k".repeat(MAX_SEARCH_QUERY_CHARS);
    const { id } = await fx.service.createDocument({ title: "Long", markdown: `start ${phrase} end` });
    await waitFor(() => readSnapshot(fx.db, id), "readSnapshot(fx.db, id)");
    expect(ids(await fx.service.listDocuments({ query: phrase }))).toEqual([id]);
    await expect(fx.service.listDocuments({ query: `${phrase}k` })).rejects.toMatchObject({ code: "invalid-input" });
  });
});
