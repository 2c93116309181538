/**
 * Waits for a condition inside React's act() (Testing Library's waitFor), for component tests: state updates made
 * while waiting are flushed, and the wait is for a fact with a deadline, never a fixed time.
 */
import { waitFor as settle } from "@testing-library/react";

export const until = (condition: () => boolean, what: string): Promise<void> =>
  settle(
    () => {
      if (!condition()) throw new Error(`still waiting for ${what}`);
    },
    { timeout: 10_000, interval: 10 },
  );
