import { describe, expect, it } from "vitest";
import type { Chunk, StorageAdapterInterface, StorageKey } from "@automerge/automerge-repo";
import { ClosableStorage } from "./closable-storage.js";

class MemoryStorage implements StorageAdapterInterface {
  data = new Map<string, Uint8Array>();
  async load(key: StorageKey) {
    return this.data.get(key.join("/"));
  }
  async save(key: StorageKey, value: Uint8Array) {
    this.data.set(key.join("/"), value);
  }
  async remove(key: StorageKey) {
    this.data.delete(key.join("/"));
  }
  async loadRange(prefix: StorageKey): Promise<Chunk[]> {
    return [...this.data].filter(([k]) => k.startsWith(prefix.join("/"))).map(([k, data]) => ({ key: k.split("/"), data }));
  }
  async removeRange(prefix: StorageKey) {
    for (const k of [...this.data.keys()]) if (k.startsWith(prefix.join("/"))) this.data.delete(k);
  }
}

describe("ClosableStorage", () => {
  it("passes everything through until closed, then touches nothing", async () => {
    const inner = new MemoryStorage();
    const storage = new ClosableStorage(inner);
    await storage.save(["doc", "snapshot", "a"], new Uint8Array([1]));
    expect(await storage.load(["doc", "snapshot", "a"])).toEqual(new Uint8Array([1]));
    expect(await storage.loadRange(["doc"])).toHaveLength(1);
    storage.close();
    await storage.save(["doc", "sync-state", "s"], new Uint8Array([2]));
    await storage.remove(["doc", "snapshot", "a"]);
    await storage.removeRange(["doc"]);
    expect([...inner.data.keys()]).toEqual(["doc/snapshot/a"]);
    expect(await storage.load(["doc", "snapshot", "a"])).toBeUndefined();
  });
});
