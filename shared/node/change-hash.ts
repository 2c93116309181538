/**
 * The hashes of encoded Automerge changes in Node, without decoding their operations: the chunk check of
 * shared/fast-link/change-hash.ts (magic bytes; for an uncompressed change, the checksum that is the first 4 bytes of
 * its hash; anything else must get through Automerge's decoder) over node:crypto's SHA-256. Exists because the fast
 * path notes every change it carries in the sync state (shared/sync-pacing.ts notePeerHas), A.decodeChange costs ~25 µs
 * a change against ~0.5 µs for the one-shot hash (crypto.hash, Node >= 20.12), and a relay must refuse bytes that are
 * not changes when they arrive.
 *
 * What must stay true: for well-formed changes the result equals A.decodeChange(bytes).hash (change-hash.test.ts).
 */
import { hash } from "node:crypto";
import { changeHashesCheckedWith } from "../fast-link/change-hash.js";

/** Each change's hash when every one is a well-formed change chunk; null as soon as one is not. */
export const verifiedChangeHashes = changeHashesCheckedWith((bytes) => hash("sha256", bytes, "hex"));
