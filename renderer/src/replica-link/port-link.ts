/**
 * A HostLink over anything that posts messages: a Worker (the page's end), a worker's global scope (the host's end)
 * or a MessagePort (both ends, in tests). What must stay true: a listener stops hearing once its stop is called.
 */
import type { HostLink } from "../replica/host-protocol.js";

export interface MessageEndpoint {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  removeEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  start?(): void;
}

export function portLink<Out, In>(endpoint: MessageEndpoint): HostLink<Out, In> {
  endpoint.start?.();
  return {
    post: (message) => endpoint.postMessage(message, []),
    listen: (listener) => {
      const onMessage = (event: MessageEvent) => listener(event.data as In);
      endpoint.addEventListener("message", onMessage);
      return () => endpoint.removeEventListener("message", onMessage);
    },
  };
}
