/**
 * The window outbox's storage as the replica host sees it: a worker has no localStorage, so the host keeps a copy
 * of the origin's outbox entries (sent by the page at start and whenever another window changes one) and sends every
 * write to the page, which makes it in localStorage. Reads are answered from the copy.
 * What must stay true: a write is in the copy at once (the outbox reads back what it wrote) and reaches the page in
 * order; keys outside the outbox's prefix are never held.
 */
import type { OutboxStorage } from "./outbox-store.js";
import { OUTBOX_KEY_PREFIX } from "./outbox-store.js";

export class MirroredStorage implements OutboxStorage {
  readonly #items = new Map<string, string>();

  constructor(
    private readonly write: (key: string, value: string | null) => void,
    entries: [string, string | null][] = [],
  ) {
    this.apply(entries);
  }

  /** Entries as the page's storage holds them now (null: removed). */
  apply(entries: [string, string | null][]): void {
    for (const [key, value] of entries) {
      if (typeof key !== "string" || !key.startsWith(OUTBOX_KEY_PREFIX)) continue;
      if (typeof value === "string") this.#items.set(key, value);
      else this.#items.delete(key);
    }
  }

  get length(): number {
    return this.#items.size;
  }

  key(index: number): string | null {
    return [...this.#items.keys()][index] ?? null;
  }

  getItem(key: string): string | null {
    return this.#items.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.#items.set(key, value);
    this.write(key, value);
  }

  removeItem(key: string): void {
    if (!this.#items.delete(key)) return;
    this.write(key, null);
  }
}
