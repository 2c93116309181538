/**
 * The patched StorageSubsystem (patches/@automerge+automerge-repo+*.patch) clears its "compacting" flag however a
 * compaction ends. Stock 2.5.6 set it, wrote the snapshot, then cleared it, so one write that threw (a full disk)
 * left it set: every later save of a document already stored was another incremental chunk, until a document's first
 * save happened to clear it (relay storage audit).
 */
import { next as A } from "@automerge/automerge";
import { Repo, type Chunk, type DocumentId, type StorageAdapterInterface, type StorageKey } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";

/** In memory; every save throws while `failing` is set, as SQLite does on a full disk. */
class FlakyStorage implements StorageAdapterInterface {
  readonly data = new Map<string, { key: StorageKey; data: Uint8Array }>();
  failing = false;
  async load(key: StorageKey): Promise<Uint8Array | undefined> {
    return this.data.get(key.join("/"))?.data;
  }
  async save(key: StorageKey, data: Uint8Array): Promise<void> {
    if (this.failing) throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
    this.data.set(key.join("/"), { key, data });
  }
  async remove(key: StorageKey): Promise<void> {
    this.data.delete(key.join("/"));
  }
  async loadRange(prefix: StorageKey): Promise<Chunk[]> {
    return [...this.data.values()].filter(({ key }) => prefix.every((part, i) => key[i] === part));
  }
  async removeRange(prefix: StorageKey): Promise<void> {
    for (const { key } of await this.loadRange(prefix)) this.data.delete(key.join("/"));
  }
  kinds(documentId: string): string[] {
    return [...this.data.values()].filter(({ key }) => key[0] === documentId).map(({ key }) => key[1]!);
  }
}

const repos: Repo[] = [];
afterEach(async () => {
  await Promise.all(repos.splice(0).map((r) => r.shutdown().catch(() => undefined)));
});

describe("patched StorageSubsystem compaction", () => {
  it("compacts again after a compaction whose write failed", async () => {
    const storage = new FlakyStorage();
    const repo = new Repo({ network: [], storage });
    repos.push(repo);
    const subsystem = repo.storageSubsystem!;
    const id = "compaction-test" as DocumentId;
    let doc = A.from<{ text: string }>({ text: "a" });
    const append = (more: string) => (doc = A.change(doc, (d) => A.splice(d, ["text"], d.text.length, 0, more)));
    // The Repo saves its storage id at start: let that land before the disk "fills".
    await repo.storageId();
    await subsystem.saveDoc(id, doc);

    // The document is small (< 1 KB), so every save compacts it into one snapshot: this one fails.
    storage.failing = true;
    append("b");
    await expect(subsystem.saveDoc(id, doc)).rejects.toThrow("disk is full");
    storage.failing = false;

    // Stock, the stuck flag made these incremental chunks beside the first snapshot.
    for (const more of ["c", "d"]) {
      append(more);
      await subsystem.saveDoc(id, doc);
    }
    expect(storage.kinds(id)).toEqual(["snapshot"]);
  });
});
