/**
 * Test support: a host-mode core's API from Node, the way a window reaches it (the /api WebSocket with the launch's
 * secret and the core's own Origin), so a process test can drive a core it started as a child without a browser.
 */
import WebSocket from "ws";
import type { BridgeEvent, BridgeResponse, ChopinApi, ChopinEvents, EventName } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import type { CoreReady } from "./processes.js";

export interface CoreApiClient {
  api: ChopinApi;
  on<E extends EventName>(event: E, listener: (payload: ChopinEvents[E]) => void): () => void;
  close(): void;
}

export async function connectCoreApi(ready: CoreReady): Promise<CoreApiClient> {
  const origin = `http://127.0.0.1:${ready.port}`;
  const socket = new WebSocket(`ws://127.0.0.1:${ready.port}/api?secret=${encodeURIComponent(ready.secret)}`, { headers: { origin } });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  let next = 0;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  socket.on("message", (data) => {
    const frame = JSON.parse(data.toString()) as BridgeResponse | BridgeEvent;
    if ("event" in frame) {
      for (const listener of listeners.get(frame.event) ?? []) listener(frame.payload);
      return;
    }
    const waiting = pending.get(frame.id);
    if (!waiting) return;
    pending.delete(frame.id);
    if (frame.ok) waiting.resolve(frame.result);
    else waiting.reject(new ChopinError(frame.error.code, frame.error.message, frame.error.details));
  });
  socket.on("close", () => {
    for (const waiting of pending.values()) waiting.reject(new ChopinError("core-unreachable", "The core went away."));
    pending.clear();
  });
  const api = new Proxy({} as ChopinApi, {
    get: (_target, method: string) =>
      (...args: unknown[]) =>
        new Promise((resolve, reject) => {
          const id = ++next;
          pending.set(id, { resolve, reject });
          socket.send(JSON.stringify({ id, method, args }));
        }),
  });
  return {
    api,
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (payload: unknown) => void);
      return () => set.delete(listener as (payload: unknown) => void);
    },
    close: () => socket.terminate(),
  };
}
