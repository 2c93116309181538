/**
 * The header of an encoded Automerge change (deps, actor, seq, startOp, time, message), read without decoding its
 * operations, for code in any process: the window's replica reads every arriving change's message to find the
 * Planner's (a window has no node:crypto or Buffer), and shared/node/change-meta.ts reads on past the header to count
 * the ops. A.decodeChange decodes every op (~0.3 ms for a keystroke's change, ~0.4 s for a 100 KB paste), which is too
 * much to spend on each change that arrives.
 *
 * A change chunk is magic(4) checksum(4) type(1) length(uLEB) body; the body begins with deps (count, 32-byte
 * hashes), actor (length, bytes), seq, startOp (uLEB), time (sLEB), message (length, UTF-8).
 *
 * What must stay true: for every uncompressed change the fields equal what A.decodeChange reports
 * (change-header.test.ts); any other chunk (a compressed change) gives null, so the caller decodes it; malformed
 * bytes throw, never give invented fields.
 */
import { bytesToHex } from "@noble/hashes/utils";

export interface ChangeHeader {
  deps: string[];
  actor: string;
  seq: number;
  startOp: number;
  /** As the change recorded it (seconds since the epoch in the JS API). */
  time: number;
  message: string | null;
}

const HEADER_BYTES = 8;
const CHUNK_TYPE_CHANGE = 1;
const HASH_BYTES = 32;

/** A cursor over `bytes[at, end)`. */
export class ChangeReader {
  at: number;
  constructor(
    readonly bytes: Uint8Array,
    at: number,
    readonly end: number,
  ) {
    this.at = at;
  }
  byte(): number {
    if (this.at >= this.end) throw new RangeError("change ends early");
    return this.bytes[this.at++];
  }
  /** Arithmetic, not bit shifts: op counters and times pass 2^31. */
  uleb(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      value += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return value;
      scale *= 128;
    }
  }
  sleb(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      value += (b & 0x7f) * scale;
      scale *= 128;
      if ((b & 0x80) === 0) return b & 0x40 ? value - scale : value;
    }
  }
  take(length: number): Uint8Array {
    if (length > this.end - this.at) throw new RangeError("change ends early");
    const out = this.bytes.subarray(this.at, this.at + length);
    this.at += length;
    return out;
  }
}

/**
 * The header of an uncompressed change and a reader over the rest of its body (positioned after the message); null
 * for any other chunk. `hex` turns ids into hex (Node passes Buffer's, which is faster over many changes).
 */
export function readChangeHeader(bytes: Uint8Array, hex: (bytes: Uint8Array) => string = bytesToHex): { header: ChangeHeader; body: ChangeReader } | null {
  if (bytes.length <= HEADER_BYTES || bytes[HEADER_BYTES] !== CHUNK_TYPE_CHANGE) return null;
  const outer = new ChangeReader(bytes, HEADER_BYTES + 1, bytes.length);
  const length = outer.uleb();
  if (outer.at + length > bytes.length) throw new RangeError("change ends early");
  const body = new ChangeReader(bytes, outer.at, outer.at + length);
  const deps: string[] = [];
  for (let i = body.uleb(); i > 0; i--) deps.push(hex(body.take(HASH_BYTES)));
  const actor = hex(body.take(body.uleb()));
  const seq = body.uleb();
  const startOp = body.uleb();
  const time = body.sleb();
  const messageBytes = body.take(body.uleb());
  const message = messageBytes.length > 0 ? new TextDecoder().decode(messageBytes) : null;
  return { header: { deps, actor, seq, startOp, time, message }, body };
}
