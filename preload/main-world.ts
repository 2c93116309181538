/**
 * The page's half of window.chopin. contextBridge cannot hand a MessagePort to the page, so `replicaPort()` must
 * run in the page's own world: the preload installs this function there with contextBridge.executeInMainWorld,
 * which SERIALIZES it (Function.prototype.toString) and runs it in the page.
 * What must stay true: this function uses only its arguments and page globals — no imports, no module-level
 * values, no helpers (main-world.test.ts runs its source text in a bare vm context to prove it).
 * The result is window.chopin: a frozen ChopinPreloadApi whose api has exactly the method names it is given.
 */
import type { ChopinPreloadApi } from "../shared/api.js";
import type { IsolatedBridge } from "./isolated-bridge.js";

export function installMainWorldBridge(isolated: IsolatedBridge, methods: readonly string[], portMessageType: string): void {
  const page = globalThis as unknown as Window & typeof globalThis;
  // Errors arrive as data; the page gets an Error carrying the ChopinError fields (code, details) again.
  const toError = (shape: { code: string; message: string; details?: Record<string, unknown> }): Error => {
    const error = new Error(String(shape.message)) as Error & { code: string; details?: Record<string, unknown> };
    error.name = "ChopinError";
    error.code = shape.code;
    if (shape.details) error.details = shape.details;
    return error;
  };

  const api: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of methods) {
    api[method] = (...args: unknown[]) =>
      isolated.invoke(method, args).then((answer) => {
        if (answer.ok) return answer.result;
        throw toError(answer.error);
      });
  }

  let nextRequestId = 1;
  const replicaPort = (): Promise<MessagePort> =>
    new Promise<MessagePort>((resolve, reject) => {
      const requestId = nextRequestId++;
      const onMessage = (event: MessageEvent) => {
        const data = event.data as { type?: unknown; requestId?: unknown } | null;
        if (event.source !== page || !data || data.type !== portMessageType || data.requestId !== requestId) return;
        if (!event.ports || event.ports.length !== 1) return;
        page.removeEventListener("message", onMessage);
        resolve(event.ports[0]);
      };
      // Listen before asking: the port may arrive before the request's answer does.
      page.addEventListener("message", onMessage);
      isolated.requestReplicaPort(requestId).then(
        (answer) => {
          if (answer.ok) return;
          page.removeEventListener("message", onMessage);
          reject(toError(answer.error));
        },
        (error: unknown) => {
          page.removeEventListener("message", onMessage);
          reject(error);
        },
      );
    });

  const bridge = Object.freeze({
    api: Object.freeze(api) as unknown as ChopinPreloadApi["api"],
    on: ((event: string, listener: (payload: unknown) => void) => isolated.on(event, listener)) as ChopinPreloadApi["on"],
    replicaPort,
  }) satisfies ChopinPreloadApi;
  Object.defineProperty(page, "chopin", { value: bridge, enumerable: true, writable: false, configurable: false });
}
