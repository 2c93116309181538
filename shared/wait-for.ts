/**
 * The one way tests wait (issue #24: there were a dozen): poll `probe` until it gives something truthy, and resolve
 * with it; past the deadline, fail naming what was awaited. Tests wait for facts, never for fixed times, so they pass
 * on a loaded 2-core machine. Environment-neutral: the page's tests, the core's, the relay's and the scripts' use it.
 */

/** How long a wait lasts unless a test says otherwise. */
export const WAIT_FOR_TIMEOUT_MS = 15_000;
/** How often the probe is asked again. */
export const WAIT_FOR_INTERVAL_MS = 10;

export async function waitFor<T>(probe: () => T | Promise<T>, what: string, timeoutMs = WAIT_FOR_TIMEOUT_MS): Promise<NonNullable<T>> {
  // performance.now, not Date.now: tests that fake Date (and move it) still get a real deadline.
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (performance.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, WAIT_FOR_INTERVAL_MS));
  }
}
