/** Polls a condition until it holds or a deadline passes: tests wait for conditions, never for fixed sleeps. */
export async function waitFor<T>(probe: () => T | Promise<T>, options: { timeoutMs?: number; what?: string } = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + (options.timeoutMs ?? 5000);
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what ?? "condition"}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
