/**
 * Heads in two spellings: Automerge's hex change hashes (what the CRDT works with) and automerge-repo's UrlHeads
 * (bs58check, what a renderer's DocHandle.heads() returns). Revisions and version ids are opaque digests of the
 * sorted hex heads, so they are equal exactly when the document states are equal.
 */
import { createHash } from "node:crypto";
import { decodeHeads, encodeHeads, type UrlHeads } from "@automerge/automerge-repo";
import { ChopinError } from "../../shared/errors.js";
import { MAX_HEADS_PER_CALL } from "../util/limits.js";

const HEX_HASH = /^[0-9a-f]{64}$/;

function digest(prefix: string, heads: readonly string[]): string {
  const hash = createHash("sha256").update([...heads].sort().join(",")).digest("hex");
  return `${prefix}${hash.slice(0, 40)}`;
}

/** The document revision: changes with every change, equal for equal states. */
export function revisionOf(hexHeads: readonly string[]): string {
  return digest("r1-", hexHeads);
}

/** The shape every revision has ("r1-" and 40 hex digits); anything else was never a revision. */
const REVISION_SHAPE = /^r1-[0-9a-f]{40}$/;

/** Whether `value` has a revision's shape (it may still be stale: only the document can say). */
export function isRevision(value: unknown): value is string {
  return typeof value === "string" && REVISION_SHAPE.test(value);
}

export function versionIdOf(hexHeads: readonly string[]): string {
  return digest("v1-", hexHeads);
}

/** Whether `value` has the shape versionIdOf gives ("v1-" and 40 hex digits): anything else names no version. */
export function isVersionId(value: string): boolean {
  return /^v1-[0-9a-f]{40}$/.test(value);
}

export function toUrlHeads(hexHeads: readonly string[]): string[] {
  return encodeHeads([...hexHeads]);
}

/** Accepts hex hashes or UrlHeads; refuses anything else with 'invalid-input'. */
export function toHexHeads(heads: unknown): string[] {
  if (!Array.isArray(heads) || heads.length > MAX_HEADS_PER_CALL) throw new ChopinError("invalid-input", "Heads must be a list.");
  return heads.map((head) => {
    if (typeof head !== "string") throw new ChopinError("invalid-input", "Each head must be text.");
    if (HEX_HASH.test(head)) return head;
    try {
      const [hex] = decodeHeads([head] as UrlHeads);
      if (HEX_HASH.test(hex)) return hex;
    } catch {
      // fall through to the refusal below
    }
    throw new ChopinError("invalid-input", "A head is neither a change hash nor an automerge-repo head.");
  });
}
