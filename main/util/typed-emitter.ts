/** A minimal typed event emitter for the core's event map: listeners get exactly the payload type of their event. */
export type Listener<T> = (payload: T) => void;

export class TypedEmitter<Events extends object> {
  #listeners = new Map<keyof Events, Set<Listener<never>>>();

  on<E extends keyof Events>(event: E, listener: Listener<Events[E]>): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  emit<E extends keyof Events>(event: E, payload: Events[E]): void {
    for (const listener of this.#listeners.get(event) ?? []) {
      try {
        (listener as Listener<Events[E]>)(payload);
      } catch {
        // A failing listener must not stop the others or the emitter's caller.
      }
    }
  }

  listenerCount(event: keyof Events): number {
    return this.#listeners.get(event)?.size ?? 0;
  }
}
