/**
 * Paces the window's reaction to 'documents-changed': the first event after a quiet spell is acted on at once (a
 * teammate's or an agent's change shows without delay), and events arriving within the next interval are gathered
 * and acted on together when it ends. The core says a document changed once per change it applies, that is once per
 * keystroke while someone types, and each reaction costs the core a listing and a document read.
 * What must stay true: no event's ids are dropped: every id reported is handed to `flush` no later than one interval
 * after it came, so the sidebar and the open document's header end showing what the core holds.
 */

/**
 * At most one re-read of the list and open document per this many ms while changes stream in: typing sends ~5-15
 * changes a second, and a quarter second is still "at once" for a title or an "edited just now" in the sidebar.
 */
export const DOCUMENT_EVENT_REFRESH_MS = 250;

/** Calls `fire` once after the interval; returns the cancel. Tests pass their own to end intervals by hand. */
export type IntervalSchedule = (fire: () => void) => () => void;

export const defaultSchedule: IntervalSchedule = (fire) => {
  const timer = setTimeout(fire, DOCUMENT_EVENT_REFRESH_MS);
  return () => clearTimeout(timer);
};

export interface PacedChanges {
  add(ids: Iterable<string>): void;
  stop(): void;
}

export function paceChanges(flush: (ids: Set<string>) => void, schedule: IntervalSchedule = defaultSchedule): PacedChanges {
  let pending: Set<string> | null = null;
  let cancel: (() => void) | null = null;
  let stopped = false;

  const run = (ids: Set<string>) => {
    // The interval starts before flushing, so a flush that reports changes synchronously is paced too.
    cancel = schedule(() => {
      cancel = null;
      if (stopped || !pending) return;
      const next = pending;
      pending = null;
      run(next);
    });
    flush(ids);
  };

  return {
    add(ids) {
      if (stopped) return;
      if (cancel) {
        pending ??= new Set();
        for (const id of ids) pending.add(id);
        return;
      }
      run(new Set(ids));
    },
    stop() {
      stopped = true;
      cancel?.();
      cancel = null;
      pending = null;
    },
  };
}
