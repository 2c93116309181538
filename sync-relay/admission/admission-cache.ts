/**
 * A bounded, time-limited cache of admission answers keyed by SHA-256 of the token, so the relay never keeps a token
 * it does not need and a verified token is not re-checked against GitHub on every connection. What must stay true:
 * an entry is served for at most its TTL; the map never holds more than its capacity (oldest evicted first).
 */
import { createHash } from "node:crypto";

export function tokenHash(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export class TtlCache<V> {
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();
  constructor(
    private readonly ttlMs: number,
    private readonly capacity: number,
    private readonly now: () => number,
  ) {}

  get(key: string): V | undefined {
    const e = this.#entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= this.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.capacity) {
      const now = this.now();
      for (const [k, e] of this.#entries) if (e.expiresAt <= now) this.#entries.delete(k);
      // Map iteration order is insertion order: the first key is the oldest.
      while (this.#entries.size >= this.capacity) this.#entries.delete(this.#entries.keys().next().value as string);
    }
    this.#entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
