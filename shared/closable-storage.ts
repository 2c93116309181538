/**
 * Wraps a storage adapter so the Repo's throttled background writes (document saves and sync states, which it
 * schedules on timers that shutdown() does not cancel) cannot touch the database after its owner (the app core, the
 * relay) closed it. Document data is flushed before close, so a late save would only write it again; a late sync
 * state is rebuilt by the next sync.
 * What must stay true: before close() every call passes straight through.
 */
import type { Chunk, StorageAdapterInterface, StorageKey } from "@automerge/automerge-repo";

export class ClosableStorage implements StorageAdapterInterface {
  #closed = false;

  constructor(private readonly inner: StorageAdapterInterface) {}

  close(): void {
    this.#closed = true;
  }

  async load(key: StorageKey): Promise<Uint8Array | undefined> {
    return this.#closed ? undefined : this.inner.load(key);
  }

  async save(key: StorageKey, data: Uint8Array): Promise<void> {
    if (!this.#closed) await this.inner.save(key, data);
  }

  async remove(key: StorageKey): Promise<void> {
    if (!this.#closed) await this.inner.remove(key);
  }

  async loadRange(keyPrefix: StorageKey): Promise<Chunk[]> {
    return this.#closed ? [] : this.inner.loadRange(keyPrefix);
  }

  async removeRange(keyPrefix: StorageKey): Promise<void> {
    if (!this.#closed) await this.inner.removeRange(keyPrefix);
  }
}
