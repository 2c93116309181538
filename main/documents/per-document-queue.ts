/**
 * One write at a time per document, in the order they were asked for. A write checks the plan (archived? still
 * there?) and then awaits (a load, a flush, a window's goodbye) before it changes anything; without this, a second
 * write's change could land in that gap: a delete racing a restore deleted the restored plan, and an archive racing a
 * rename left an archived plan renamed. What must stay true: a failed write never blocks the next; the map holds
 * only documents with a write in flight.
 */
export class PerDocumentQueue {
  readonly #tails = new Map<string, Promise<void>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key) ?? Promise.resolve();
    const result = before.then(() => work());
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Documents with a write queued or running (for tests of the bound). */
  get size(): number {
    return this.#tails.size;
  }
}
