/**
 * An index entry's title is a plain scalar string, so two devices rewriting it at once (each core refreshes the entry
 * from the plan after a concurrent rename) resolve to one title however the changes arrive; entries written as text
 * by older versions still read as strings.
 */
import { next as A } from "@automerge/automerge";
import { Repo, type DocHandle } from "@automerge/automerge-repo";
import { describe, expect, it } from "vitest";
import { indexEntrySchema, type IndexEntry, type WorkspaceIndex } from "../../shared/schema/workspace-index.js";
import { newIndex, readEntries, upsertEntry } from "./workspace-index.js";

const ID = "33jC8BwD5YFURwZTmYRmsWJzRdLj";
const entry = (title: string, updatedAt = 1): IndexEntry => ({ title, createdVia: "app", archivedAt: null, createdAt: 1, updatedAt });

function indexHandle(doc: A.Doc<WorkspaceIndex>): DocHandle<WorkspaceIndex> {
  const handle = new Repo({}).create<WorkspaceIndex>();
  handle.update(() => A.clone(doc));
  return handle;
}

describe("index entry titles", () => {
  it("are stored as scalar strings and read back as strings", () => {
    const handle = new Repo({}).create<WorkspaceIndex>(newIndex("team"));
    upsertEntry(handle, ID, entry("Plan"));
    expect((handle.doc().documents[ID].title as unknown) instanceof A.RawString).toBe(true);
    expect(readEntries(handle).get(ID)?.title).toBe("Plan");
    upsertEntry(handle, ID, entry("Renamed", 2));
    expect((handle.doc().documents[ID].title as unknown) instanceof A.RawString).toBe(true);
    expect(readEntries(handle).get(ID)?.title).toBe("Renamed");
    // Nothing to write when nothing differs.
    expect(upsertEntry(handle, ID, entry("Renamed", 2))).toBe(false);
  });

  it("written as text by an older version, still read as a string and replaced by a scalar on the next rename", () => {
    const old = A.from<WorkspaceIndex>({ ...newIndex("team"), documents: { [ID]: entry("Old text title") } });
    const handle = indexHandle(old);
    expect(typeof handle.doc().documents[ID].title).toBe("string");
    expect(readEntries(handle).get(ID)?.title).toBe("Old text title");
    upsertEntry(handle, ID, entry("New", 2));
    expect(readEntries(handle).get(ID)?.title).toBe("New");
  });

  it("two devices rewriting the title at once converge on one title, in memory as on disk, in any arrival order", () => {
    const base = new Repo({}).create<WorkspaceIndex>(newIndex("team"));
    upsertEntry(base, ID, entry("Plan"));
    const start = base.doc();
    // Each device renames, hears the other's rename, then refreshes the entry from the merged plan title.
    const alice = indexHandle(A.clone(start, { actor: "aaaaaaaa" }));
    const bob = indexHandle(A.clone(start, { actor: "bbbbbbbb" }));
    upsertEntry(alice, ID, entry("Title by Alice", 2));
    upsertEntry(bob, ID, entry("Title by Bob", 3));
    const both = A.merge(A.clone(alice.doc()), bob.doc());
    const winner = readEntries(indexHandle(both)).get(ID)!.title;
    alice.update((d) => A.merge(d, bob.doc()));
    bob.update((d) => A.merge(d, A.clone(alice.doc())));
    upsertEntry(alice, ID, entry(winner, 4));
    upsertEntry(bob, ID, entry(winner, 5));
    const changes = [...A.getChanges(start, alice.doc()), ...A.getChanges(start, bob.doc())];
    const unique = [...new Map(changes.map((bytes) => [A.decodeChange(bytes).hash, bytes])).values()];
    for (let trial = 0; trial < 50; trial++) {
      let doc = A.clone(start, { actor: "cccccccc" });
      const have = new Set(A.getAllChanges(start).map((c) => A.decodeChange(c).hash));
      const pending = unique.map((bytes) => ({ bytes, meta: A.decodeChange(bytes) }));
      while (pending.length) {
        const ready = pending.filter((c) => c.meta.deps.every((h) => have.has(h)));
        const next = ready[Math.floor(Math.random() * ready.length)];
        [doc] = A.applyChanges(doc, [next.bytes]);
        have.add(next.meta.hash);
        pending.splice(pending.indexOf(next), 1);
      }
      // Read from the document as applied change by change (a clone would materialize it afresh and hide a bad patch).
      const live = indexEntrySchema.parse(doc.documents[ID]).title;
      const fresh = indexEntrySchema.parse(A.load<WorkspaceIndex>(A.save(doc)).documents[ID]).title;
      expect(live).toBe(fresh);
      expect(["Title by Alice", "Title by Bob"]).toContain(live);
    }
  });
});
