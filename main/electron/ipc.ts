/**
 * IPC between the window and the core. Exactly two request channels exist (an API call by name, and a replica port
 * request) and one push channel (events). What must stay true:
 *  - only our window's top frame, showing a trusted origin, is answered; anything else gets "forbidden";
 *  - only names in API_METHODS are called (dispatchApiCall refuses the rest), with the caller's args as a list;
 *  - nothing is ever thrown across IPC: every answer is { ok, result } or { ok: false, error: ErrorShape };
 *  - only EVENT_NAMES are forwarded, and only to our window.
 */
import type { IpcMainInvokeEvent, MessagePortMain } from "electron";
import { EVENT_NAMES, type ChopinEvents } from "../../shared/api.js";
import { ChopinError, toErrorShape } from "../../shared/errors.js";
import { IPC_EVENT, IPC_INVOKE, IPC_REPLICA_PORT, IPC_REPLICA_PORT_REQUEST, type WireResult } from "../../shared/ipc-channels.js";
import { dispatchApiCall } from "../api/api-dispatch.js";
import type { AppCore } from "../core/types.js";
import { isTrustedUrl } from "./app-origin.js";

/** The parts of an invoke event the trust check reads. */
export interface SenderLike {
  sender: unknown;
  senderFrame: { url: string; parent: unknown; postMessage?: unknown } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface WindowContentsLike {
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
}

export interface IpcOptions {
  ipcMain: IpcMainLike;
  core: Pick<AppCore, "api" | "events">;
  /** Our window's webContents, or null while there is no window. */
  contents: () => WindowContentsLike | null;
  origins: readonly string[];
  /** Opens a fresh replica channel and returns the renderer's end. */
  openReplicaPort: () => MessagePortMain;
}

export function isTrustedSender(event: SenderLike, contents: unknown, origins: readonly string[]): boolean {
  if (contents === null || event.sender !== contents) return false;
  const frame = event.senderFrame;
  // Only the top frame: an iframe (even a same-origin one) is not the app.
  if (!frame || frame.parent !== null) return false;
  return isTrustedUrl(frame.url, origins);
}

const forbidden = (): WireResult => ({
  ok: false,
  error: toErrorShape(new ChopinError("forbidden", "Only the Chopin window may use this channel.")),
});

/** Registers the handlers and event forwarding; returns a function that removes all of it. */
export function registerIpc(options: IpcOptions): () => void {
  const { ipcMain, core, origins } = options;
  const trusted = (event: IpcMainInvokeEvent) => isTrustedSender(event, options.contents(), origins);

  ipcMain.handle(IPC_INVOKE, async (event, method, args): Promise<WireResult> => {
    if (!trusted(event)) return forbidden();
    return dispatchApiCall(core.api, method, args);
  });

  ipcMain.handle(IPC_REPLICA_PORT_REQUEST, (event, requestId): WireResult => {
    if (!trusted(event)) return forbidden();
    if (!Number.isSafeInteger(requestId)) {
      return { ok: false, error: toErrorShape(new ChopinError("invalid-input", "A replica port request needs a whole-number id.")) };
    }
    try {
      const port = options.openReplicaPort();
      event.senderFrame!.postMessage(IPC_REPLICA_PORT, { requestId }, [port]);
      return { ok: true, result: null };
    } catch (error) {
      return { ok: false, error: toErrorShape(error) };
    }
  });

  const unsubscribes = EVENT_NAMES.map((name) =>
    core.events.on(name, (payload: ChopinEvents[typeof name]) => {
      const contents = options.contents();
      if (contents && !contents.isDestroyed()) contents.send(IPC_EVENT, name, payload);
    }),
  );

  return () => {
    ipcMain.removeHandler(IPC_INVOKE);
    ipcMain.removeHandler(IPC_REPLICA_PORT_REQUEST);
    for (const unsubscribe of unsubscribes) unsubscribe();
  };
}
