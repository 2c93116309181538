/** What the Electron preload puts on `window`: the API contract plus the port the renderer's replica syncs over. */
import type { ChopinBridge } from "../../shared/api.js";

declare global {
  interface Window {
    chopin?: ChopinBridge & { replicaPort(): Promise<MessagePort> };
  }
}

export {};
