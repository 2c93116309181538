/**
 * The preload's half of window.chopin, living in the isolated world next to ipcRenderer. It never exposes
 * ipcRenderer itself: the page can only name an API method, subscribe to a known event, or ask for a replica port.
 * Everything it returns is plain data (a WireResult), because contextBridge strips class identity and custom fields
 * from thrown errors; the main-world half (main-world.ts) turns error shapes back into throwable errors.
 */
import { API_METHODS, EVENT_NAMES } from "../shared/api.js";
import { ChopinError, isErrorCode, toErrorShape, type ErrorShape } from "../shared/errors.js";
import { IPC_EVENT, IPC_INVOKE, IPC_REPLICA_PORT, IPC_REPLICA_PORT_REQUEST, WINDOW_REPLICA_PORT_MESSAGE, type WireResult } from "../shared/ipc-channels.js";

/** The subset of Electron's ipcRenderer this file uses, so tests can drive it without Electron. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: { ports: readonly MessagePort[] }, ...args: unknown[]) => void): unknown;
}

/** Where the port goes next: the page's window (shared DOM, other JS world). */
export interface PortForwardTarget {
  postMessage(message: unknown, targetOrigin: string, transfer: Transferable[]): void;
}

export interface IsolatedBridge {
  invoke(method: string, args: unknown[]): Promise<WireResult>;
  on(event: string, listener: (payload: unknown) => void): () => void;
  requestReplicaPort(requestId: number): Promise<WireResult>;
}

const isKnown = (list: readonly string[], name: unknown): name is string => typeof name === "string" && list.includes(name);

function refusal(error: unknown): WireResult {
  return { ok: false, error: toErrorShape(error) };
}

/** Anything main answers is checked before the page sees it; a malformed answer becomes an "internal" error. */
function asWireResult(value: unknown): WireResult {
  if (value && typeof value === "object" && "ok" in value) {
    const v = value as { ok: unknown; result?: unknown; error?: Partial<ErrorShape> };
    if (v.ok === true) return { ok: true, result: v.result ?? null };
    if (v.ok === false && v.error && isErrorCode(v.error.code) && typeof v.error.message === "string") {
      return { ok: false, error: { code: v.error.code, message: v.error.message, ...(v.error.details ? { details: v.error.details } : {}) } };
    }
  }
  return refusal(new Error("malformed answer from the core"));
}

export function createIsolatedBridge(ipc: IpcRendererLike, target: PortForwardTarget): IsolatedBridge {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();

  // One IPC listener for every subscription: the page cannot grow ipcRenderer's listener list.
  ipc.on(IPC_EVENT, (_event, name, payload) => {
    if (!isKnown(EVENT_NAMES, name)) return;
    for (const listener of listeners.get(name) ?? []) {
      try {
        listener(payload);
      } catch {
        // A failing page listener must not stop the others.
      }
    }
  });

  ipc.on(IPC_REPLICA_PORT, (event, message) => {
    const port = event.ports?.[0];
    const requestId = (message as { requestId?: unknown } | null)?.requestId;
    if (!port || typeof requestId !== "number") return;
    // "*" is safe: the target is this same window, and only its main world listens for this type.
    target.postMessage({ type: WINDOW_REPLICA_PORT_MESSAGE, requestId }, "*", [port]);
  });

  return {
    async invoke(method, args) {
      if (!isKnown(API_METHODS, method)) {
        return refusal(new ChopinError("invalid-input", `“${String(method).slice(0, 64)}” is not an operation Chopin offers.`));
      }
      if (!Array.isArray(args)) return refusal(new ChopinError("invalid-input", "Arguments must be sent as a list."));
      try {
        return asWireResult(await ipc.invoke(IPC_INVOKE, method, args));
      } catch (error) {
        return refusal(error);
      }
    },

    on(event, listener) {
      if (!isKnown(EVENT_NAMES, event)) throw new ChopinError("invalid-input", `“${String(event).slice(0, 64)}” is not an event Chopin sends.`);
      if (typeof listener !== "function") throw new ChopinError("invalid-input", "An event listener must be a function.");
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },

    async requestReplicaPort(requestId) {
      if (!Number.isSafeInteger(requestId)) return refusal(new ChopinError("invalid-input", "A replica port request needs a whole-number id."));
      try {
        return asWireResult(await ipc.invoke(IPC_REPLICA_PORT_REQUEST, requestId));
      } catch (error) {
        return refusal(error);
      }
    },
  };
}
