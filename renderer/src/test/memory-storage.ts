/**
 * Test helper: the Web Storage API in memory (key order = insertion order, as browsers do in practice), with an
 * optional quota in characters of keys plus values past which setItem throws like a browser's QuotaExceededError.
 */
export class MemoryStorage {
  readonly #items = new Map<string, string>();
  writes = 0;
  constructor(private readonly quotaChars = Number.POSITIVE_INFINITY) {}

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
    const others = [...this.#items].filter(([k]) => k !== key).reduce((sum, [k, v]) => sum + k.length + v.length, 0);
    if (others + key.length + value.length > this.quotaChars) {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    }
    this.writes++;
    this.#items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.#items.delete(key);
  }
  clear(): void {
    this.#items.clear();
  }
}
