/**
 * Time as an injectable dependency, so the 8-hour token lifetime, the 5-minute refresh lead and TTL caches can be
 * tested by advancing a manual clock instead of sleeping. The system clock's timers are unref'd: a pending refresh
 * must never keep a process alive.
 */
export type TimerHandle = { readonly id: number };

export interface Clock {
  now(): number;
  setTimer(fn: () => void, ms: number): TimerHandle;
  clearTimer(handle: TimerHandle): void;
}

let nextTimerId = 0;

export const systemClock: Clock = (() => {
  const live = new Map<number, ReturnType<typeof setTimeout>>();
  return {
    now: () => Date.now(),
    setTimer(fn, ms) {
      const id = ++nextTimerId;
      // setTimeout caps at ~24.8 days; a longer wait fires at the cap, which for a refresh only means refreshing early.
      const t = setTimeout(() => {
        live.delete(id);
        fn();
      }, Math.min(Math.max(0, ms), 2 ** 31 - 1));
      t.unref?.();
      live.set(id, t);
      return { id };
    },
    clearTimer(handle) {
      const t = live.get(handle.id);
      if (t) clearTimeout(t);
      live.delete(handle.id);
    },
  };
})();

/** A clock that moves only when told to; due timers fire in time order during advance(). */
export class ManualClock implements Clock {
  #now: number;
  #timers = new Map<number, { at: number; fn: () => void }>();

  constructor(start = Date.UTC(2025, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimer(fn: () => void, ms: number): TimerHandle {
    const id = ++nextTimerId;
    this.#timers.set(id, { at: this.#now + Math.max(0, ms), fn });
    return { id };
  }

  clearTimer(handle: TimerHandle): void {
    this.#timers.delete(handle.id);
  }

  /** Moves time forward by ms, firing every timer that falls due on the way, earliest first. */
  advance(ms: number): void {
    const target = this.#now + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.#timers) if (entry[1].at <= target && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.#timers.delete(next[0]);
      this.#now = Math.max(this.#now, next[1].at);
      next[1].fn();
    }
    this.#now = target;
  }

  /** When the earliest pending timer is due, or null. */
  nextTimerAt(): number | null {
    let at: number | null = null;
    for (const t of this.#timers.values()) if (at === null || t.at < at) at = t.at;
    return at;
  }

  pendingTimers(): number {
    return this.#timers.size;
  }
}
