/**
 * Coalesces a re-read at its source: one run in flight at a time, and at most one queued behind it ("latest wins").
 * A burst of requests (a core event per keystroke, answered slower than keys come) therefore costs the core at most
 * two reads, not one per request: before this, every keystroke asked for the document list and the open document,
 * and a fast typist filled the core's call queue ("Too many actions are waiting for Chopin").
 * What must stay true: a caller's promise settles only after a run that began after the call, so whoever awaits a
 * re-read after a change of theirs (a rename, an archive) sees what the core holds after that change.
 */
export function latestWins(run: () => Promise<void>): () => Promise<void> {
  let inFlight: Promise<void> | null = null;
  let queued: Promise<void> | null = null;

  const start = (): Promise<void> => {
    // `run` reports its own failures; a throw here must not leave the queue stuck.
    const current = run().catch(() => undefined).finally(() => {
      if (inFlight === current) inFlight = null;
    });
    inFlight = current;
    return current;
  };

  return () => {
    // Every request made while a run is in flight (or queued) shares the one queued run, which starts when that run ends.
    if (queued) return queued;
    if (!inFlight) return start();
    queued = inFlight.then(() => {
      queued = null;
      return start();
    });
    return queued;
  };
}
