/**
 * The relay wire: binary CBOR frames between the app core's RelayClientAdapter (main/sync/) and the relay's
 * RelayServerAdapter (sync-relay/). Same shapes and encoding as automerge-repo's own WebSocket adapters (join/peer
 * handshake, then repo messages), plus the close codes both sides agree on.
 *
 * What must stay true:
 * - decodeFrame never throws: every malformed input becomes { ok: false, reason } so the relay can close that one
 *   socket with 1007 and carry on.
 * - Encoding matches automerge-repo's cbor helper (no Uint8Array tags, no records), so payloads round-trip as bytes.
 */
import { Encoder, decode } from "cbor-x";
import { MAX_PEER_ID_CHARS } from "./limits.js";

export const RELAY_PROTOCOL_VERSION = "1";

/** WebSocket close codes on the relay wire. 1xxx are standard; 4xxx are ours. */
export const CLOSE_CODES = {
  /** Relay shutting down; the client reconnects later. */
  goingAway: 1001,
  /** A frame that does not decode or lacks required fields. */
  malformed: 1007,
  /** A frame breaking the protocol: message before join, sender id other than the joined peer. */
  policy: 1008,
  /** A frame above MAX_RELAY_MESSAGE_BYTES. */
  tooBig: 1009,
  /** The user's access was revoked or their token replaced; do not retry with the same token. */
  revoked: 4401,
  /** The peer id belongs to another user; do not retry with the same peer id. */
  peerRefused: 4403,
  /** A newer connection with the same user and peer id replaced this one; do not fight it. */
  replaced: 4409,
  /** No join frame within RELAY_JOIN_TIMEOUT_MS. */
  joinTimeout: 4408,
} as const;

export interface PeerMetadataFrame {
  storageId?: string;
  isEphemeral?: boolean;
}

export interface JoinFrame {
  type: "join";
  senderId: string;
  peerMetadata: PeerMetadataFrame;
  supportedProtocolVersions: string[];
}

export interface PeerFrame {
  type: "peer";
  senderId: string;
  targetId: string;
  peerMetadata: PeerMetadataFrame;
  selectedProtocolVersion: string;
}

export interface ErrorFrame {
  type: "error";
  senderId: string;
  targetId: string;
  message: string;
}

/** An automerge-repo message (sync, request, ephemeral, doc-unavailable, ...), carried as-is. */
export interface RepoFrame {
  type: string;
  senderId: string;
  targetId: string;
  documentId?: string;
  data?: Uint8Array;
  [extra: string]: unknown;
}

export type WireFrame = JoinFrame | PeerFrame | ErrorFrame | RepoFrame;

export type DecodeResult = { ok: true; frame: WireFrame } | { ok: false; reason: string };

const encoder = new Encoder({ tagUint8Array: false, useRecords: false });

export function encodeFrame(frame: WireFrame): Uint8Array {
  return encoder.encode(frame);
}

export function isJoinFrame(frame: WireFrame): frame is JoinFrame {
  return frame.type === "join";
}
export function isPeerFrame(frame: WireFrame): frame is PeerFrame {
  return frame.type === "peer";
}
export function isErrorFrame(frame: WireFrame): frame is ErrorFrame {
  return frame.type === "error";
}

export function isValidPeerId(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= MAX_PEER_ID_CHARS;
}

export function decodeFrame(bytes: Uint8Array): DecodeResult {
  let value: unknown;
  try {
    value = decode(bytes);
  } catch {
    return { ok: false, reason: "frame is not valid CBOR" };
  }
  if (!value || typeof value !== "object" || Array.isArray(value) || value instanceof Uint8Array) {
    return { ok: false, reason: "frame is not a map" };
  }
  const frame = value as Record<string, unknown>;
  if (typeof frame.type !== "string" || frame.type.length === 0 || frame.type.length > 64) {
    return { ok: false, reason: "frame has no type" };
  }
  if (!isValidPeerId(frame.senderId)) return { ok: false, reason: "frame has no valid senderId" };
  if (frame.type === "join") {
    const versions = frame.supportedProtocolVersions;
    if (versions !== undefined && !(Array.isArray(versions) && versions.every((v) => typeof v === "string"))) {
      return { ok: false, reason: "join frame has invalid supportedProtocolVersions" };
    }
    const meta = frame.peerMetadata;
    if (meta !== undefined && (meta === null || typeof meta !== "object" || Array.isArray(meta))) {
      return { ok: false, reason: "join frame has invalid peerMetadata" };
    }
    return {
      ok: true,
      frame: {
        type: "join",
        senderId: frame.senderId,
        peerMetadata: (meta ?? {}) as PeerMetadataFrame,
        supportedProtocolVersions: (versions as string[] | undefined) ?? [RELAY_PROTOCOL_VERSION],
      },
    };
  }
  if (!isValidPeerId(frame.targetId)) return { ok: false, reason: "frame has no valid targetId" };
  if (frame.documentId !== undefined && (typeof frame.documentId !== "string" || frame.documentId.length > 128)) {
    return { ok: false, reason: "frame has an invalid documentId" };
  }
  if (frame.data !== undefined && !(frame.data instanceof Uint8Array)) {
    return { ok: false, reason: "frame data is not bytes" };
  }
  if (frame.type === "error" && typeof frame.message !== "string") {
    return { ok: false, reason: "error frame has no message" };
  }
  return { ok: true, frame: frame as unknown as WireFrame };
}
