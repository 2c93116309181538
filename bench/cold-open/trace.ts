/**
 * Reads an editing trace: the editing-traces JSON ({startContent, endContent, txns:[{patches:[[pos,del,ins]]}]},
 * which is what /work/shared/data/automerge-paper.json.gz holds) or the older automerge-perf form
 * ({edits:[[pos,del,ins?]], finalText}). Positions are UTF-16 indexes into the text as it is when the patch applies.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

export type Patch = [pos: number, del: number, ins?: string];

export interface Trace {
  startContent: string;
  /** One entry per transaction; each becomes one Automerge change. */
  txns: Patch[][];
  endContent: string;
}

export const PAPER_TRACE_PATH = "/work/shared/data/automerge-paper.json.gz";

export function loadTrace(path: string): Trace {
  const raw = readFileSync(path);
  const json = JSON.parse((path.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8")) as Record<string, unknown>;
  if (Array.isArray(json.txns)) {
    return {
      startContent: String(json.startContent ?? ""),
      txns: (json.txns as { patches: Patch[] }[]).map((t) => t.patches),
      endContent: String(json.endContent),
    };
  }
  if (Array.isArray(json.edits)) {
    return { startContent: "", txns: (json.edits as Patch[]).map((e) => [e]), endContent: String(json.finalText) };
  }
  throw new Error(`${path} is neither an editing-traces file nor an automerge-perf trace`);
}
