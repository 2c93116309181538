/**
 * Test support (imported only by *.test.ts): waiting on real sockets while fake timers hold the clock. Both helpers
 * yield with setImmediate, which the tests using them leave real (vi.useFakeTimers({ toFake: [...] }) without it), so
 * socket I/O runs while timers do not move.
 */

/** Waits, turn by turn, until `condition` holds; fails naming `what` after `timeoutMs` of real time. */
export async function untilImmediate(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Lets pending socket I/O run without moving fake time. */
export async function flushIo(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}
