/**
 * Host mode's API bridge: JSON frames over one WebSocket per page (shapes in shared/api.ts). Requests may complete
 * out of order; each response carries its request id. Malformed frames get an error response when they carry an id
 * and are otherwise dropped; nothing a page sends can throw out of here.
 */
import type { WebSocket } from "ws";
import { EVENT_NAMES, type BridgeEvent, type BridgeResponse, type ChopinApi, type ChopinEvents } from "../../shared/api.js";
import { MAX_BRIDGE_FRAME_BYTES } from "../util/limits.js";
import { dispatchApiCall } from "../api/api-dispatch.js";
import type { TypedEmitter } from "../util/typed-emitter.js";

export function serveApiSocket(socket: WebSocket, api: ChopinApi, events: TypedEmitter<ChopinEvents>): void {
  const send = (frame: BridgeResponse | BridgeEvent) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
  };
  const unsubscribers = EVENT_NAMES.map((event) => events.on(event, (payload) => send({ event, payload })));
  socket.on("close", () => unsubscribers.forEach((off) => off()));
  socket.on("error", () => socket.terminate());

  socket.on("message", async (data, isBinary) => {
    const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer).byteLength;
    if (isBinary || size > MAX_BRIDGE_FRAME_BYTES) {
      socket.close(1009, "Frame too large or not text");
      return;
    }
    let frame: unknown;
    try {
      frame = JSON.parse(data.toString());
    } catch {
      return;
    }
    if (!frame || typeof frame !== "object" || typeof (frame as { id?: unknown }).id !== "number") return;
    const { id, method, args } = frame as { id: number; method: unknown; args: unknown };
    const result = await dispatchApiCall(api, method, args ?? []);
    send(result.ok ? { id, ok: true, result: result.result } : { id, ok: false, error: result.error });
  });
}
