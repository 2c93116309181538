/**
 * Waits for `work` at most `ms`: resolves when it settles or when the time is up, whichever comes first, and never
 * rejects (a wait that must not hold something up longer than a bound, whatever the work does). The timer never keeps
 * the process alive.
 */
export function within(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref?.();
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    work.then(done, done);
  });
}
