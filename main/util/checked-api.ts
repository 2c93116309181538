/**
 * Puts each ChopinApi method of `api` behind its argument schema (shared/api-arguments.ts): a call whose arguments do
 * not fit is refused with 'invalid-input' and a sentence before the service sees them. Every create…Api factory
 * returns its methods through here, so the window's bridge, Electron's IPC and a test calling the core directly meet
 * the same check. What must stay true: a refusal is a rejected promise (never a synchronous throw), and what a method
 * receives is what its schema read (unknown fields of an options object dropped).
 */
import { checkArguments } from "../../shared/api-arguments.js";
import { API_METHODS, type ApiMethod } from "../../shared/api.js";

const isApiMethod = (name: string): name is ApiMethod => (API_METHODS as readonly string[]).includes(name);

export function checkedApi<T extends Partial<Record<ApiMethod, (...args: never[]) => Promise<unknown>>>>(api: T): T {
  const checked: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(api) as [string, (...args: unknown[]) => Promise<unknown>][]) {
    checked[name] = isApiMethod(name)
      ? async (...args: unknown[]) => method(...(checkArguments(name, args) as unknown[]))
      : method;
  }
  return checked as T;
}
