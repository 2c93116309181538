/**
 * The /sync socket's server end: automerge-repo's WebSocketServerAdapter with every frame checked before it is read.
 * Exists because the stock adapter destructures whatever CBOR decodes to (a lone `null` byte threw out of the core
 * and ended the process) and lets a throw from its own handling escape into the socket's event.
 *
 * What must stay true: a frame that is not a well-formed message (shared/sync-wire.ts decodeFrame: a map with a type,
 * sender and target) closes that socket with CLOSE_CODES.malformed and a reason; nothing a window sends can throw out
 * of the core; well-formed frames reach the stock adapter unchanged.
 */
import { WebSocketServerAdapter } from "@automerge/automerge-repo-network-websocket";
import type WebSocket from "ws";
import { CLOSE_CODES, decodeFrame } from "../../shared/sync-wire.js";

/** A close reason is at most 123 bytes (RFC 6455); ours are short ASCII sentences. */
const MAX_CLOSE_REASON_CHARS = 120;

type StockSocket = Parameters<WebSocketServerAdapter["receiveMessage"]>[1];

export class GuardedSyncServerAdapter extends WebSocketServerAdapter {
  override receiveMessage(messageBytes: Uint8Array, socket: StockSocket): void {
    const decoded = decodeFrame(messageBytes);
    if (!decoded.ok) return refuse(socket, decoded.reason);
    try {
      super.receiveMessage(messageBytes, socket);
    } catch (error) {
      refuse(socket, `message not handled: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

function refuse(socket: StockSocket, reason: string): void {
  (socket as unknown as WebSocket).close(CLOSE_CODES.malformed, reason.slice(0, MAX_CLOSE_REASON_CHARS));
}
