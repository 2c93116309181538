/**
 * What the relay lets through to its Repo. automerge-repo assumes well-formed messages; a garbage sync payload,
 * ephemeral payload or document id would surface as errors deep inside it (each one logged with its whole stack, the
 * socket left open to send the next), so the relay checks each inbound repo message first and closes the offending
 * socket instead (1007 malformed, 1008 policy).
 *
 * What must stay true: every check here runs on every message, presence heartbeats and caret moves included, so each
 * payload is decoded at most once, where it lies (no copy).
 */
import { next as A } from "@automerge/automerge";
import { cbor, isValidDocumentId } from "@automerge/automerge-repo";
import type { RepoFrame } from "../shared/sync-wire.js";
import { CLOSE_CODES } from "../shared/sync-wire.js";

export type GuardVerdict = { ok: true } | { ok: false; code: number; reason: string };
/** A verdict that may also drop a well-formed message without closing its socket (a refused write: chat-write-guard.ts). */
export type InboundVerdict = GuardVerdict | { ok: false; dropped: string };

const DOC_MESSAGE_TYPES = new Set(["sync", "request", "ephemeral", "doc-unavailable"]);

/**
 * `refusesChanges`, when given, is asked about a sync or request message that carries changes (from the one decode
 * below; a message without changes never asks it): true drops the message.
 */
export function checkRepoMessage(frame: RepoFrame, refusesChanges?: (documentId: string, changes: Uint8Array[]) => boolean): InboundVerdict {
  if (!DOC_MESSAGE_TYPES.has(frame.type)) {
    return { ok: false, code: CLOSE_CODES.policy, reason: `unsupported message type "${frame.type}"` };
  }
  if (typeof frame.documentId !== "string" || !isValidDocumentId(frame.documentId)) {
    return { ok: false, code: CLOSE_CODES.malformed, reason: "message has no valid documentId" };
  }
  if (frame.type === "doc-unavailable") return { ok: true };
  if (!(frame.data instanceof Uint8Array) || frame.data.byteLength === 0) {
    return { ok: false, code: CLOSE_CODES.malformed, reason: `${frame.type} message has no data` };
  }
  if (frame.type === "ephemeral") {
    if (typeof frame.count !== "number" || typeof frame.sessionId !== "string") {
      return { ok: false, code: CLOSE_CODES.malformed, reason: "ephemeral message lacks count or sessionId" };
    }
    // The relay's Repo decodes every ephemeral payload with this same decoder (automerge-repo's cbor helper) to hand it
    // to the document's listeners before forwarding it; what it cannot decode would only be logged there, per message.
    try {
      cbor.decode(frame.data);
    } catch {
      return { ok: false, code: CLOSE_CODES.malformed, reason: "ephemeral message data is not CBOR" };
    }
    return { ok: true };
  }
  let changes: Uint8Array[];
  try {
    changes = A.decodeSyncMessage(frame.data).changes;
  } catch {
    return { ok: false, code: CLOSE_CODES.malformed, reason: `${frame.type} message data is not an Automerge sync message` };
  }
  if (changes.length > 0 && refusesChanges?.(frame.documentId, changes)) {
    return { ok: false, dropped: `changes to ${frame.documentId}, a chat only its person writes` };
  }
  return { ok: true };
}
