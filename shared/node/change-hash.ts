/**
 * The hash of an encoded Automerge change, without decoding its operations. A change chunk is
 * magic(4) checksum(4) type(1) length(LEB128) body, and its hash is SHA-256 over type, length and body; an
 * uncompressed change (type 1, what getChanges and getLastLocalChange return) is hashed natively here. Anything else
 * (a compressed change, bytes that are not a change) goes through Automerge's own decoder.
 * Exists because the fast path notes every change it carries in the sync state (shared/sync-pacing.ts notePeerHas),
 * and A.decodeChange costs ~25 µs a change against ~2 µs for the hash.
 *
 * verifiedChangeHashes also checks each chunk's magic bytes and checksum (the first 4 bytes of that hash), so a relay
 * can refuse bytes that are not Automerge changes when they arrive instead of when it applies them.
 *
 * What must stay true: the result equals A.decodeChange(bytes).hash for every change (change-hash.test.ts checks).
 */
import { createHash } from "node:crypto";
import * as A from "@automerge/automerge";
import { changeHashesCheckedWith } from "../fast-link/change-hash.js";

const HEADER_BYTES = 8;
const CHUNK_TYPE_CHANGE = 1;

export function changeHash(change: Uint8Array): string {
  if (change.length > HEADER_BYTES && change[HEADER_BYTES] === CHUNK_TYPE_CHANGE) {
    return createHash("sha256").update(change.subarray(HEADER_BYTES)).digest("hex");
  }
  return A.decodeChange(change).hash as string;
}

/** changeHash of each change; a batch that does not decode yields no hashes (noting nothing is always safe). */
export function changeHashes(changes: readonly Uint8Array[]): string[] {
  try {
    return changes.map(changeHash);
  } catch {
    return [];
  }
}

/**
 * changeHash of each change when every one is a well-formed chunk (magic bytes, and for an uncompressed change a
 * checksum that matches its hash; anything else must decode); null as soon as one is not.
 */
export const verifiedChangeHashes = changeHashesCheckedWith((bytes) => createHash("sha256").update(bytes).digest());
