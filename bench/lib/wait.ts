/** Waiting on conditions with a deadline, never fixed sleeps standing in for "it is probably done". */

export async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Resolves after `ms`: a measuring window or warm-up of a benchmark, never waiting for a result. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves at an absolute performance.now() time; pacing a load generator, not waiting for a result. */
export function sleepUntil(at: number): Promise<void> {
  const delay = Math.max(0, at - performance.now());
  return new Promise((resolve) => setTimeout(resolve, delay));
}

export function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms: ${what}`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
