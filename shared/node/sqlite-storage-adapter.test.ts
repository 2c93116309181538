import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { Repo, type AutomergeUrl } from "@automerge/automerge-repo";
import { runStorageAdapterTests } from "@automerge/automerge-repo/helpers/tests/storage-adapter-tests.js";
import { SqliteStorageAdapter } from "./sqlite-storage-adapter.js";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "chopin-sqlite-storage-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

runStorageAdapterTests(async () => {
  const dir = tempDir();
  const adapter = new SqliteStorageAdapter(join(dir, "chunks.sqlite"));
  return { adapter, teardown: () => adapter.close() };
}, "SqliteStorageAdapter on a file");

runStorageAdapterTests(async () => {
  const db = new Database(":memory:");
  const adapter = new SqliteStorageAdapter(db, { table: "component_chunks" });
  return { adapter, teardown: () => void db.close() };
}, "SqliteStorageAdapter on a shared Database");

describe("SqliteStorageAdapter", () => {
  it("keeps data across reopening the file", async () => {
    const file = join(tempDir(), "chunks.sqlite");
    const first = new SqliteStorageAdapter(file);
    await first.save(["doc", "snapshot", "h1"], new Uint8Array([1, 2, 3]));
    await first.save(["doc", "incremental", "h2"], new Uint8Array([4]));
    first.close();

    const second = new SqliteStorageAdapter(file);
    expect(await second.load(["doc", "snapshot", "h1"])).toStrictEqual(new Uint8Array([1, 2, 3]));
    expect((await second.loadRange(["doc"])).map((c) => c.key)).toEqual([
      ["doc", "snapshot", "h1"],
      ["doc", "incremental", "h2"],
    ]);
    second.close();
  });

  it("lists the first part of every stored key once (the stored documents' ids), single-part keys included", async () => {
    const adapter = new SqliteStorageAdapter(new Database(":memory:"));
    expect(adapter.storedKeyHeads()).toEqual([]);
    await adapter.save(["docA", "snapshot", "h1"], new Uint8Array([1]));
    await adapter.save(["docA", "incremental", "h2"], new Uint8Array([2]));
    await adapter.save(["docB", "sync-state", "peer"], new Uint8Array([3]));
    await adapter.save(["storage-adapter-id"], new Uint8Array([4]));
    expect(adapter.storedKeyHeads().sort()).toEqual(["docA", "docB", "storage-adapter-id"]);
    expect([adapter.holds(["docA"]), adapter.holds(["docB"]), adapter.holds(["doc"]), adapter.holds(["docC"])]).toEqual([true, true, false, false]);
    await adapter.removeRange(["docA"]);
    expect(adapter.storedKeyHeads().sort()).toEqual(["docB", "storage-adapter-id"]);
    expect(adapter.holds(["docA"])).toBe(false);
  });

  it("runs in WAL mode with synchronous=FULL", () => {
    const adapter = new SqliteStorageAdapter(join(tempDir(), "chunks.sqlite"));
    expect(adapter.db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(adapter.db.pragma("synchronous", { simple: true })).toBe(2);
    adapter.close();
  });

  it("runs WAL with synchronous=NORMAL when asked for process-crash durability (the relay), and keeps every save", async () => {
    const file = join(tempDir(), "relay-chunks.sqlite");
    const adapter = new SqliteStorageAdapter(file, { durability: "process-crash" });
    expect(adapter.db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(adapter.db.pragma("synchronous", { simple: true })).toBe(1);
    await adapter.save(["doc", "incremental", "h1"], new Uint8Array([4, 5]));
    adapter.close();
    const reopened = new SqliteStorageAdapter(file);
    expect(await reopened.load(["doc", "incremental", "h1"])).toStrictEqual(new Uint8Array([4, 5]));
    reopened.close();
  });

  it("leaves a shared Database open on close and shares the file with other tables", async () => {
    const db = new Database(join(tempDir(), "component.sqlite"));
    db.exec("CREATE TABLE settings (k TEXT PRIMARY KEY, v TEXT)");
    const adapter = new SqliteStorageAdapter(db);
    await adapter.save(["a"], new Uint8Array([9]));
    adapter.close();
    expect(db.open).toBe(true);
    expect(db.prepare("SELECT count(*) AS n FROM automerge_chunks").get()).toEqual({ n: 1 });
    db.close();
  });

  it("does not let a prefix match a longer sibling part", async () => {
    const adapter = new SqliteStorageAdapter(":memory:");
    await adapter.save(["doc", "sync-state", "x"], new Uint8Array([1]));
    await adapter.save(["doc", "sync-stateX", "y"], new Uint8Array([2]));
    await adapter.save(["docX", "snapshot", "z"], new Uint8Array([3]));
    expect((await adapter.loadRange(["doc", "sync-state"])).map((c) => c.key)).toEqual([["doc", "sync-state", "x"]]);
    await adapter.removeRange(["doc"]);
    expect((await adapter.loadRange([])).map((c) => c.key)).toEqual([["docX", "snapshot", "z"]]);
    adapter.close();
  });

  it("refuses a key part containing the separator", async () => {
    const adapter = new SqliteStorageAdapter(":memory:");
    await expect(adapter.save(["a\u001fb"], new Uint8Array([1]))).rejects.toThrow(/separator/);
    adapter.close();
  });

  it("lets a reopened Repo find a document saved by an earlier one", async () => {
    const file = join(tempDir(), "repo.sqlite");
    const storage1 = new SqliteStorageAdapter(file);
    const repo1 = new Repo({ storage: storage1 });
    const handle = repo1.create<{ text: string }>({ text: "hello" });
    handle.change((d) => {
      d.text = "hello, world";
    });
    const url: AutomergeUrl = handle.url;
    await repo1.flush();
    await repo1.shutdown();
    storage1.close();

    const storage2 = new SqliteStorageAdapter(file);
    const repo2 = new Repo({ storage: storage2 });
    const found = await repo2.find<{ text: string }>(url);
    expect(found.doc().text).toBe("hello, world");
    await repo2.shutdown();
    storage2.close();
  });
});
