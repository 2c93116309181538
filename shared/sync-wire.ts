/**
 * The relay wire: binary CBOR frames between the app core's RelayClientAdapter (main/sync/) and the relay's
 * RelayServerAdapter (sync-relay/). Same shapes and encoding as automerge-repo's own WebSocket adapters (join/peer
 * handshake, then repo messages), plus the close codes both sides agree on.
 *
 * What must stay true:
 * - decodeFrame never throws: every malformed input becomes { ok: false, reason } so the relay can close that one
 *   socket with 1007 and carry on.
 * - Encoding matches automerge-repo's cbor helper (no Uint8Array tags, no records), so payloads round-trip as bytes.
 * - Optional features (the change fast path) are used only when BOTH the join and the peer frame list them: a side
 *   that does not know a frame type must never receive it (an old relay closes 1008; an old client's Repo throws).
 *
 * The change fast path ("changes" frames): a client sends the Automerge change bytes of a fresh local batch to the
 * relay the moment it is made; the relay applies them and forwards the same bytes to the other peers syncing that
 * document. It exists because automerge-repo's sync protocol is throttled per document (~100 ms) and needs a round
 * trip per hop (automerge.md gotcha 2); the sync protocol keeps running underneath and stays the source of truth.
 */
import { Encoder, decode } from "cbor-x";
import { MAX_PEER_ID_CHARS, MAX_WIRE_DOCUMENT_ID_CHARS, MAX_WIRE_FEATURE_NAME_CHARS, MAX_WIRE_FRAME_TYPE_CHARS } from "./limits.js";

export const RELAY_PROTOCOL_VERSION = "1";

/** Feature name in join/peer frames: the side understands "changes" frames. */
export const FEATURE_FAST_CHANGES = "fast-changes";
/** Frame type of the change fast path; never handed to a Repo. */
export const FAST_CHANGES_TYPE = "changes";
/** A join or peer frame lists at most this many features (anything longer is malformed). */
const MAX_FEATURES = 16;

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
  /**
   * Try again later: a refusal that may lift by itself, and the client keeps retrying (the relay not ready, a full
   * database, every peer binding live, its reader too far behind).
   */
  tryAgainLater: 1013,
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
  /** Optional features this client understands (FEATURE_FAST_CHANGES). */
  features?: string[];
}

export interface PeerFrame {
  type: "peer";
  senderId: string;
  targetId: string;
  peerMetadata: PeerMetadataFrame;
  selectedProtocolVersion: string;
  /** Optional features the relay understands AND the joining client listed. */
  features?: string[];
}

/** One fast-path batch: Automerge changes, each as A.getChanges returns it (A.applyChanges takes them back). */
export interface FastChangesFrame {
  type: typeof FAST_CHANGES_TYPE;
  senderId: string;
  targetId: string;
  documentId: string;
  changes: Uint8Array[];
}

/** Total bytes of a batch's changes. */
export function batchBytes(changes: readonly Uint8Array[]): number {
  let total = 0;
  for (const change of changes) total += change.byteLength;
  return total;
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

export type WireFrame = JoinFrame | PeerFrame | ErrorFrame | FastChangesFrame | RepoFrame;

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
export function isFastChangesFrame(frame: WireFrame): frame is FastChangesFrame {
  return frame.type === FAST_CHANGES_TYPE;
}

/** Whether a join or peer frame lists `feature`. */
export function hasFeature(frame: { features?: unknown }, feature: string): boolean {
  return Array.isArray(frame.features) && frame.features.includes(feature);
}

function isChangeList(documentId: unknown, changes: unknown): boolean {
  return (
    typeof documentId === "string" &&
    Array.isArray(changes) &&
    changes.length > 0 &&
    changes.every((c) => c instanceof Uint8Array && c.byteLength > 0)
  );
}

function isFeatureList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length <= MAX_FEATURES && value.every((f) => typeof f === "string" && f.length <= MAX_WIRE_FEATURE_NAME_CHARS);
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
  if (typeof frame.type !== "string" || frame.type.length === 0 || frame.type.length > MAX_WIRE_FRAME_TYPE_CHARS) {
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
    if (frame.features !== undefined && !isFeatureList(frame.features)) {
      return { ok: false, reason: "join frame has invalid features" };
    }
    const join: JoinFrame = {
      type: "join",
      senderId: frame.senderId,
      peerMetadata: (meta ?? {}) as PeerMetadataFrame,
      supportedProtocolVersions: (versions as string[] | undefined) ?? [RELAY_PROTOCOL_VERSION],
    };
    if (frame.features !== undefined) join.features = frame.features as string[];
    return { ok: true, frame: join };
  }
  if (!isValidPeerId(frame.targetId)) return { ok: false, reason: "frame has no valid targetId" };
  if (frame.documentId !== undefined && (typeof frame.documentId !== "string" || frame.documentId.length > MAX_WIRE_DOCUMENT_ID_CHARS)) {
    return { ok: false, reason: "frame has an invalid documentId" };
  }
  if (frame.data !== undefined && !(frame.data instanceof Uint8Array)) {
    return { ok: false, reason: "frame data is not bytes" };
  }
  if (frame.type === "peer" && frame.features !== undefined && !isFeatureList(frame.features)) {
    return { ok: false, reason: "peer frame has invalid features" };
  }
  if (frame.type === FAST_CHANGES_TYPE && !isChangeList(frame.documentId, frame.changes)) {
    return { ok: false, reason: "changes frame needs a documentId and a list of changes" };
  }
  if (frame.type === "error" && typeof frame.message !== "string") {
    return { ok: false, reason: "error frame has no message" };
  }
  return { ok: true, frame: frame as unknown as WireFrame };
}
