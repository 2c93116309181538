/**
 * What the window fast link adds to a window <-> core automerge-repo link: one peer-metadata field that says "this
 * end understands fast-link batches", and one message type carrying a batch of Automerge change bytes. Both travel
 * inside the stock adapters' own framing (CBOR over the host-mode WebSocket, structured clone over a MessagePort),
 * which pass unknown fields and message types through untouched.
 *
 * What must stay true:
 * - The metadata field is the whole handshake: a batch goes to a peer only when the peer's join/arrive/peer/welcome
 *   metadata listed it, so an old page or an old core never receives one (their Repo would drop it anyway:
 *   NetworkSubsystem ignores message types it does not know).
 * - parseFastLinkBatch never throws; anything malformed gives null.
 */
import type { PeerMetadata } from "@automerge/automerge-repo";
import { FAST_PATH_MAX_BYTES, MAX_FAST_LINK_DOCUMENT_ID_CHARS } from "../limits.js";
import { batchBytes } from "../sync-wire.js";

/** Peer-metadata field naming the fast-link version this end speaks. */
export const FAST_LINK_METADATA_KEY = "chopinFastLink";
export const FAST_LINK_VERSION = 1;
/** Message type of a fast-link batch; never handed to a Repo. */
export const FAST_LINK_MESSAGE_TYPE = "chopin-fast-changes";

export interface FastLinkBatch {
  type: typeof FAST_LINK_MESSAGE_TYPE;
  senderId: string;
  targetId: string;
  documentId: string;
  changes: Uint8Array[];
}

/** `metadata` plus the field that offers the fast link. */
export function offerFastLink(metadata: PeerMetadata | undefined): PeerMetadata {
  return { ...(metadata ?? {}), [FAST_LINK_METADATA_KEY]: FAST_LINK_VERSION } as PeerMetadata;
}

/** Whether the other end's metadata offered the fast link. */
export function offersFastLink(metadata: PeerMetadata | undefined): boolean {
  return (metadata as Record<string, unknown> | undefined)?.[FAST_LINK_METADATA_KEY] === FAST_LINK_VERSION;
}

/** The metadata as the Repo should see it: without the fast-link field. */
export function withoutFastLink(metadata: PeerMetadata | undefined): PeerMetadata {
  if (!metadata || !(FAST_LINK_METADATA_KEY in metadata)) return metadata as PeerMetadata;
  const { [FAST_LINK_METADATA_KEY]: _offer, ...rest } = metadata as Record<string, unknown>;
  return rest as PeerMetadata;
}

/** The batch a fast-link message carries, or null when it is not a well-formed one within FAST_PATH_MAX_BYTES. */
export function parseFastLinkBatch(message: unknown): { documentId: string; changes: Uint8Array[] } | null {
  if (!message || typeof message !== "object") return null;
  const { type, documentId, changes } = message as Record<string, unknown>;
  if (type !== FAST_LINK_MESSAGE_TYPE) return null;
  if (typeof documentId !== "string" || documentId.length === 0 || documentId.length > MAX_FAST_LINK_DOCUMENT_ID_CHARS) return null;
  if (!Array.isArray(changes) || changes.length === 0) return null;
  if (!changes.every((c) => c instanceof Uint8Array && c.byteLength > 0)) return null;
  if (batchBytes(changes as Uint8Array[]) > FAST_PATH_MAX_BYTES) return null;
  return { documentId, changes: changes as Uint8Array[] };
}
