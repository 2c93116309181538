/**
 * The hashes of encoded Automerge changes for code that runs in a browser (the window's end of the window fast link):
 * over @noble/hashes' SHA-256 (plain JS, synchronous: a window has neither node:crypto nor a synchronous WebCrypto
 * digest, and A.decodeChange(bytes).hash costs ~50 µs a keystroke, ~0.6 s for a 60 KB paste); shared/node/change-hash.ts
 * runs the same check over node:crypto.
 * A change chunk is magic(4) checksum(4) type(1) length(LEB128) body; its hash is SHA-256 over type, length and body,
 * and the checksum is that hash's first 4 bytes. An uncompressed change (type 1, what A.getChanges returns) is hashed
 * here; any other chunk must get through Automerge's own decoder (slow, and rare on this link).
 *
 * What must stay true: for well-formed changes the result equals A.decodeChange(bytes).hash (change-hash.test.ts); any
 * batch holding bytes that are not a change gives null, never a throw.
 */
import { next as A } from "@automerge/automerge";
import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex } from "@noble/hashes/utils";

const HEADER_BYTES = 8;
const CHUNK_TYPE_CHANGE = 1;
const MAGIC = [0x85, 0x6f, 0x4a, 0x83] as const;
const CHECKSUM_OFFSET = 4;
const CHECKSUM_BYTES = 4;
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** Whether the chunk's stored checksum (bytes 4-7) is the first 4 bytes of `hexHash`. */
function checksumMatches(change: Uint8Array, hexHash: string): boolean {
  for (let i = 0; i < CHECKSUM_BYTES; i++) {
    if (HEX[change[CHECKSUM_OFFSET + i]] !== hexHash.slice(2 * i, 2 * i + 2)) return false;
  }
  return true;
}

/**
 * A checker over `hexDigest` (SHA-256 as lowercase hex): each change's hash when every one is a well-formed change
 * chunk; null as soon as one is not. Node passes node:crypto's one-shot hash (shared/node/change-hash.ts: hex straight
 * from C++, ~0.5 µs a change against ~3-5 µs for a Hash object and a JS hex loop), a window the plain-JS one.
 */
export function changeHashesCheckedWith(hexDigest: (bytes: Uint8Array) => string): (changes: readonly Uint8Array[]) => string[] | null {
  return (changes) => {
    const hashes: string[] = [];
    for (const change of changes) {
      if (!(change instanceof Uint8Array) || change.length <= HEADER_BYTES) return null;
      if (MAGIC.some((byte, i) => change[i] !== byte)) return null;
      if (change[HEADER_BYTES] !== CHUNK_TYPE_CHANGE) {
        try {
          hashes.push(A.decodeChange(change).hash as string);
        } catch {
          return null;
        }
        continue;
      }
      const hash = hexDigest(change.subarray(HEADER_BYTES));
      if (!checksumMatches(change, hash)) return null;
      hashes.push(hash);
    }
    return hashes;
  };
}

/** Each change's hash when every one is a well-formed change chunk; null as soon as one is not (plain-JS SHA-256). */
export const checkedChangeHashes = changeHashesCheckedWith((bytes) => bytesToHex(sha256(bytes)));
