/**
 * The one place a method name from outside becomes a call on ChopinApi. Both shells (host mode's WebSocket and
 * Electron's IPC) route through here, so both refuse the same things the same way: unknown names, non-array
 * arguments, and anything thrown becomes an ErrorShape — never an exception across the boundary.
 */
import { API_METHODS, type ApiMethod, type ChopinApi } from "../../shared/api.js";
import { ARGUMENTS_NOT_A_LIST } from "../../shared/api-arguments.js";
import { ChopinError, toErrorShape, type ErrorShape } from "../../shared/errors.js";

export type DispatchResult = { ok: true; result: unknown } | { ok: false; error: ErrorShape };

export function isApiMethod(name: unknown): name is ApiMethod {
  return typeof name === "string" && (API_METHODS as readonly string[]).includes(name);
}

export async function dispatchApiCall(api: ChopinApi, method: unknown, args: unknown): Promise<DispatchResult> {
  try {
    if (!isApiMethod(method)) {
      throw new ChopinError("invalid-input", `“${String(method).slice(0, 64)}” is not an operation Chopin offers.`);
    }
    if (!Array.isArray(args)) throw new ChopinError("invalid-input", ARGUMENTS_NOT_A_LIST);
    const fn = api[method] as (...a: unknown[]) => Promise<unknown>;
    const result = await fn.apply(api, args);
    return { ok: true, result: result === undefined ? null : result };
  } catch (error) {
    return { ok: false, error: toErrorShape(error) };
  }
}
