/**
 * The Presence "goodbye" of automerge-repo (presence/constants.js wraps its messages under "__presence"), encoded as
 * the data of an ephemeral message. Sent in someone's name when they cannot say it themselves: the core for its
 * windows before deleting a document (main/core/window-farewell.ts), the relay for a member it cuts off
 * (sync-relay/server-adapter.ts). Receivers drop the sender from "who is here" at once instead of after the heartbeat
 * TTL (PRESENCE_PEER_TTL_MS).
 */
import { cbor } from "@automerge/automerge-repo";

const PRESENCE_MESSAGE_MARKER = "__presence";

export const PRESENCE_GOODBYE: Uint8Array = cbor.encode({ [PRESENCE_MESSAGE_MARKER]: { type: "goodbye" } });
