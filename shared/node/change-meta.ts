/**
 * The metadata of encoded Automerge changes (actor, seq, hash, ops, deps, time, message) read from the chunk header
 * without decoding the operations. Automerge 2 has no call for it: A.decodeChange decodes every op (~0.3 ms for a
 * keystroke's change, ~0.4 s for a 100 KB paste), which made version history cost seconds on a long-edited plan.
 *
 * A change chunk is magic(4) checksum(4) type(1) length(uLEB) body; the body is the header (../change-header.ts: deps,
 * actor, seq, startOp, time, message), other actors (count, each length and bytes), column metadata (count, then spec
 * and length per column), the columns, extra bytes. The op count is the row count of the action column (an RLE of
 * uLEBs).
 *
 * What must stay true: for every well-formed change the result equals what A.decodeChange reports
 * (change-meta.test.ts); a chunk this reader does not know (compressed, a deflated column) goes to A.decodeChange.
 */
import { next as A } from "@automerge/automerge";
import { changesSince } from "../automerge-changes.js";
import { ChangeReader, readChangeHeader } from "../change-header.js";
import { verifiedChangeHashes } from "./change-hash.js";

export interface ChangeMeta {
  actor: string;
  seq: number;
  hash: string;
  startOp: number;
  /** startOp + number of ops - 1: less than startOp for a change with no ops. */
  maxOp: number;
  deps: string[];
  /** As the change recorded it (seconds since the epoch in the JS API). */
  time: number;
  message: string | null;
}

/** Column spec of the op action column: column id 4, type uLEB RLE (2). */
const ACTION_COLUMN_SPEC = (4 << 4) | 2;
/** Column spec bit for a DEFLATE-compressed column. */
const DEFLATE_BIT = 8;

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

/** Rows in an RLE column of uLEBs: runs of (count > 0, one value), literals (count < 0, that many values), nulls (0, count). */
function rleRows(column: ChangeReader): number {
  let rows = 0;
  while (column.at < column.end) {
    const count = column.sleb();
    if (count > 0) {
      column.uleb();
      rows += count;
    } else if (count < 0) {
      for (let i = 0; i < -count; i++) column.uleb();
      rows += -count;
    } else {
      rows += column.uleb();
    }
  }
  return rows;
}

/** Null where the chunk is not one this reader knows; throws where it is malformed. */
function readHeader(bytes: Uint8Array, hash: string): ChangeMeta | null {
  const read = readChangeHeader(bytes, hex);
  if (read === null) return null;
  const { header, body } = read;
  for (let i = body.uleb(); i > 0; i--) body.take(body.uleb());
  const columns: { spec: number; length: number }[] = [];
  for (let i = body.uleb(); i > 0; i--) columns.push({ spec: body.uleb(), length: body.uleb() });
  let ops = 0;
  let at = body.at;
  for (const { spec, length: columnLength } of columns) {
    if (spec & DEFLATE_BIT) return null;
    if (spec === ACTION_COLUMN_SPEC) ops = rleRows(new ChangeReader(bytes, at, at + columnLength));
    at += columnLength;
  }
  if (at > body.end) throw new RangeError("columns overrun the change");
  return { actor: header.actor, seq: header.seq, hash, startOp: header.startOp, maxOp: header.startOp + ops - 1, deps: header.deps, time: header.time, message: header.message };
}

function decoded(bytes: Uint8Array): ChangeMeta {
  const change = A.decodeChange(bytes);
  return {
    actor: change.actor,
    seq: change.seq,
    hash: change.hash as string,
    startOp: change.startOp,
    maxOp: change.startOp + change.ops.length - 1,
    deps: change.deps,
    time: change.time,
    message: change.message ?? null,
  };
}

/** The metadata of each change, in the order given; throws if one is not a well-formed change. */
export function changeMetas(changes: readonly Uint8Array[]): ChangeMeta[] {
  return changes.map((bytes) => {
    const hash = verifiedChangeHashes([bytes])?.[0];
    return (hash !== undefined ? readHeader(bytes, hash) : null) ?? decoded(bytes);
  });
}

/** changeMetas(changesSince(doc, heads)): what Automerge 3's A.getChangesMetaSince gave. */
export function changeMetasSince(doc: A.Doc<unknown>, heads: readonly string[]): ChangeMeta[] {
  return changeMetas(changesSince(doc, heads));
}
