/**
 * Test support (imported only by *.test.ts): the page a host-mode window runs in, for connectHost() against real
 * sockets on 127.0.0.1 — its location (the secret in `hash`), session storage in memory (`stored`, optionally holding
 * a secret `kept` from an earlier load) and sockets that present our own Origin. The socket class comes from the
 * test (Node's `ws`): renderer code outside *.test.ts never imports Node packages (scripts/layering.ts).
 */
import type { HostEnvironment } from "../bridge/connect.js";
import { SECRET_STORAGE_KEY } from "../bridge/secret.js";
import type { WebSocketLike } from "../bridge/socket-bridge.js";

/** A WebSocket class that can present an Origin header (ws's). */
export type OriginSocket = new (url: string, options: { origin: string }) => unknown;

export function hostEnvironment(
  Socket: OriginSocket,
  port: number,
  hash = "#secret=s",
  kept: string | null = null,
): HostEnvironment & { stored: Map<string, string> } {
  const stored = new Map<string, string>(kept === null ? [] : [[SECRET_STORAGE_KEY, kept]]);
  return {
    stored,
    location: { protocol: "http:", host: `127.0.0.1:${port}`, hash, pathname: "/", search: "" },
    storage: {
      getItem: (key) => stored.get(key) ?? null,
      setItem: (key, value) => void stored.set(key, value),
      removeItem: (key) => void stored.delete(key),
    },
    history: { state: null, replaceState: () => undefined },
    createSocket: (url) => new Socket(url, { origin: `http://127.0.0.1:${port}` }) as WebSocketLike,
  };
}
