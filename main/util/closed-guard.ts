/**
 * The app API once the core is closing: every call is refused with 'core-unavailable' and a sentence, instead of
 * reaching a closed database (a raw TypeError, "internal" over the bridge) or a service that answers "not found" for
 * a plan that is still there. What must stay true: nothing runs after close began; calls before it are untouched.
 */
import { ChopinError } from "../../shared/errors.js";

export const CORE_CLOSING_MESSAGE = "Chopin is closing, so nothing was done; try again once it has started again.";

/** `api` with every method refused once `closing()` is true. */
export function refusedOnceClosing<T extends object>(api: T, closing: () => boolean): T {
  const guarded: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(api)) {
    guarded[name] =
      typeof value === "function"
        ? (...args: unknown[]) =>
            closing() ? Promise.reject(new ChopinError("core-unavailable", CORE_CLOSING_MESSAGE)) : (value as (...a: unknown[]) => unknown)(...args)
        : value;
  }
  return guarded as T;
}
