/**
 * Names on the Electron IPC and window-message wires between main/electron/ and preload/. Both sides import these so
 * a rename cannot split them; nothing else may listen on these names.
 */
import type { ErrorShape } from "./errors.js";

/** ipcRenderer.invoke(INVOKE, method, args) -> DispatchResult; errors travel as data, never as exceptions. */
export const IPC_INVOKE = "chopin:invoke";
/** webContents.send(EVENT, name, payload) for the names in EVENT_NAMES. */
export const IPC_EVENT = "chopin:event";
/** ipcRenderer.invoke(REPLICA_PORT_REQUEST, requestId) asks main for a fresh replica port. */
export const IPC_REPLICA_PORT_REQUEST = "chopin:replica-port-request";
/** Main posts the port with webContents.postMessage(REPLICA_PORT, { requestId }, [port]). */
export const IPC_REPLICA_PORT = "chopin:replica-port";
/**
 * The preload forwards the port into the page with window.postMessage({ type, requestId }, "*", [port]), because
 * contextBridge cannot carry a MessagePort.
 */
export const WINDOW_REPLICA_PORT_MESSAGE = "chopin:replica-port";

/** Outcome of a call across IPC: results and errors are both plain data. */
export type WireResult = { ok: true; result: unknown } | { ok: false; error: ErrorShape };
