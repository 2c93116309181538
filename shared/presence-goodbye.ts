/**
 * The Presence "goodbye" of automerge-repo (presence/constants.js wraps its messages under "__presence"), as an
 * ephemeral message sent in someone's name when they cannot say it themselves: the core for its windows (before
 * deleting a document, or when a window's link goes: main/sync/window-farewell.ts), the relay for a member it cuts off
 * (sync-relay/server-adapter.ts). Receivers drop the sender from "who is here" at once instead of after the heartbeat
 * TTL (PRESENCE_PEER_TTL_MS).
 */
import { cbor, type EphemeralMessage } from "@automerge/automerge-repo";

const PRESENCE_MESSAGE_MARKER = "__presence";

export const PRESENCE_GOODBYE: Uint8Array = cbor.encode({ [PRESENCE_MESSAGE_MARKER]: { type: "goodbye" } });

/**
 * The goodbye of `senderId` on `documentId`, addressed to `targetId`. Receivers drop an ephemeral message whose
 * sender session and count they have seen, so each goodbye needs a `sessionId` of its own (its count is 1).
 */
export function presenceGoodbye(to: { senderId: string; targetId: string; documentId: string; sessionId: string }): EphemeralMessage {
  return {
    type: "ephemeral",
    senderId: to.senderId as EphemeralMessage["senderId"],
    targetId: to.targetId as EphemeralMessage["targetId"],
    documentId: to.documentId as EphemeralMessage["documentId"],
    data: PRESENCE_GOODBYE,
    count: 1,
    sessionId: to.sessionId as EphemeralMessage["sessionId"],
  };
}
