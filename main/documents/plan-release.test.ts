/**
 * A plan team prefetch brought in leaves memory once stored (a core that prefetched 500 plans held ~1 GB), with its
 * text on disk and its snapshot written; a plan someone uses stays.
 */
import { next as A } from "@automerge/automerge";
import type { DocumentId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import { releasePlan } from "./plan-release.js";
import { readSnapshot } from "./snapshot-store.js";
import { SnapshotWriter } from "./snapshot-writer.js";
import { makeFixture, type Fixture } from "./test-fixture.js";
import { waitFor } from "../../shared/wait-for.js";

let fx: Fixture;
afterEach(async () => fx?.close());

describe("releasePlan", () => {
  it("lets go of a stored plan nobody uses, and it opens again from storage as it was", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "Prefetched", markdown: "every word kept" });
    const handle = fx.repo.handles[id as DocumentId]!;
    const snapshots = new SnapshotWriter({ db: fx.db, intervalMs: 60_000 });
    snapshots.changed(handle);

    expect(await releasePlan({ repo: fx.repo, snapshots, watch: null }, id, () => false)).toBe(true);
    expect(fx.repo.handles[id as DocumentId]).toBeUndefined();
    expect(snapshots.pendingIds()).toEqual([]);
    expect(readSnapshot(fx.db, id)?.text).toBe("every word kept");
    // Unloading wrote nothing over the stored copy: it loads whole.
    const content = await fx.service.getContent(id);
    expect(content.detail.title).toBe("Prefetched");
    expect(content.markdown).toBe("every word kept");
  });

  it("keeps a plan someone uses", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "In use" });
    const snapshots = new SnapshotWriter({ db: fx.db });
    expect(await releasePlan({ repo: fx.repo, snapshots, watch: null }, id, (doc) => doc === id)).toBe(false);
    expect(fx.repo.handles[id as DocumentId]?.isReady()).toBe(true);
  });

  it("frees the released plan's Automerge memory rather than leave it to garbage collection", async () => {
    fx = await makeFixture();
    const { id } = await fx.service.createDocument({ title: "Freed", markdown: "words" });
    const doc = fx.repo.handles[id as DocumentId]!.doc();
    const snapshots = new SnapshotWriter({ db: fx.db, intervalMs: 60_000 });
    expect(await releasePlan({ repo: fx.repo, snapshots, watch: null, freeDelayMs: 0 }, id, () => false)).toBe(true);
    const freed = () => {
      try {
        A.getHeads(doc as A.Doc<unknown>);
        return false;
      } catch {
        return true;
      }
    };
    await waitFor(freed, "freed");
    // The plan itself is intact: it opens again from storage.
    expect((await fx.service.getContent(id)).markdown).toBe("words");
  });
});
