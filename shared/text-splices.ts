/**
 * Plans the splices that turn one text into another at a cost near-linear in their size (A.updateText diffs whole
 * texts character by character, and rewriting a 100 KB plan took over 30 s). Steps: trim the common whole lines at
 * both ends; diff the rest by lines (lines found on one side only cannot match and are left out of the diff); refine
 * each changed hunk by code points when it is small (kept text shorter than the edits around it is replaced with
 * them), else splice it whole. One work budget covers every diff of a plan: once the line diff exceeds it the trimmed
 * middle is replaced whole, once it is spent the remaining hunks are.
 * What must stay true: applying the splices (see applySplices) to the old text gives the new text exactly; splices
 * are ascending and non-overlapping, indexed in the OLD text in UTF-16 code units (Automerge's text indices in this
 * codebase); no splice boundary falls between the two halves of a surrogate pair; unchanged lines are never touched,
 * so a concurrent edit on another line merges.
 */
import { boundedDiff, type CommonRun } from "./bounded-diff.js";
import { TEXT_DIFF_CHAR_HUNK_UNITS, TEXT_DIFF_MAX_WORK } from "./limits.js";

/** Replace old[index, index + deleteCount) with `insert`. */
export interface TextSplice {
  index: number;
  deleteCount: number;
  insert: string;
}

export interface SplicePlan {
  splices: TextSplice[];
  /** Diff steps spent (line and character diffs together), and those of the line diff alone. */
  work: number;
  lineWork: number;
  /** The line diff ran out of budget, so the trimmed middle is one splice. */
  lineFallback: boolean;
  /** Hunks refined by a character diff / spliced whole. */
  refinedHunks: number;
  wholesaleHunks: number;
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;
const NEWLINE = 0x0a;

interface Range {
  aFrom: number;
  aTo: number;
  bFrom: number;
  bTo: number;
}

/**
 * Narrows a[aFrom,aTo) / b[bFrom,bTo) by their common prefix and suffix, never cutting a surrogate pair: a shared high
 * surrogate before differing low ones stays in the changed part, as does a shared low one after differing high ones.
 * `byLines` keeps only whole lines of each: a character-exact trim can end mid-line and glue a new line's tail onto
 * an old line's (an old "Keep that line.\n" then lends " line.\n" to an appended "New line.\n", and a teammate's edit
 * at the end of the kept line would merge into the new one).
 */
export function trimCommon(a: string, b: string, r: Range, byLines = false): Range {
  let { aFrom, aTo, bFrom, bTo } = r;
  let prefix = 0;
  const maxPrefix = Math.min(aTo - aFrom, bTo - bFrom);
  while (prefix < maxPrefix && a.charCodeAt(aFrom + prefix) === b.charCodeAt(bFrom + prefix)) prefix++;
  if (byLines && prefix > 0) prefix = Math.max(0, a.lastIndexOf("\n", aFrom + prefix - 1) + 1 - aFrom);
  if (prefix > 0 && isHigh(a.charCodeAt(aFrom + prefix - 1))) prefix--;
  aFrom += prefix;
  bFrom += prefix;
  let suffix = 0;
  const maxSuffix = Math.min(aTo - aFrom, bTo - bFrom);
  while (suffix < maxSuffix && a.charCodeAt(aTo - 1 - suffix) === b.charCodeAt(bTo - 1 - suffix)) suffix++;
  const start = aTo - suffix;
  if (byLines && suffix > 0 && start > aFrom && a.charCodeAt(start - 1) !== NEWLINE) {
    const lineEnd = a.indexOf("\n", start);
    suffix = lineEnd === -1 || lineEnd >= aTo ? 0 : aTo - (lineEnd + 1);
  }
  if (suffix > 0 && isLow(a.charCodeAt(aTo - suffix))) suffix--;
  return { aFrom, aTo: aTo - suffix, bFrom, bTo: bTo - suffix };
}

/** Start offsets of the lines of text[from, to) (each line keeps its "\n"), plus `to` as the last entry. */
function lineStarts(text: string, from: number, to: number): number[] {
  const starts = [from];
  for (let i = text.indexOf("\n", from); i !== -1 && i + 1 < to; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  starts.push(to);
  return starts;
}

/** Code points of text[from, to) and their start offsets (plus `to`); a lone surrogate is one token. */
function codePoints(text: string, from: number, to: number): { tokens: number[]; starts: number[] } {
  const tokens: number[] = [];
  const starts: number[] = [];
  for (let i = from; i < to; ) {
    const code = text.codePointAt(i)!;
    // A pair is one token only when both halves lie inside the range (trimCommon keeps pairs whole).
    const width = code > 0xffff && i + 1 < to ? 2 : 1;
    tokens.push(width === 2 ? code : text.charCodeAt(i));
    starts.push(i);
    i += width;
  }
  starts.push(to);
  return { tokens, starts };
}

/** The ranges between consecutive common runs, as token indices (empty gaps skipped). */
function gaps(runs: CommonRun[], aLength: number, bLength: number): Range[] {
  const out: Range[] = [];
  let a = 0;
  let b = 0;
  for (const run of [...runs, { aStart: aLength, bStart: bLength, length: 0 }]) {
    if (run.aStart > a || run.bStart > b) out.push({ aFrom: a, aTo: run.aStart, bFrom: b, bTo: run.bStart });
    a = run.aStart + run.length;
    b = run.bStart + run.length;
  }
  return out;
}

export function planTextSplices(oldText: string, newText: string, budget = TEXT_DIFF_MAX_WORK): SplicePlan {
  const plan: SplicePlan = { splices: [], work: 0, lineWork: 0, lineFallback: false, refinedHunks: 0, wholesaleHunks: 0 };
  const splice = (r: Range) => {
    if (r.aFrom === r.aTo && r.bFrom === r.bTo) return;
    plan.splices.push({ index: r.aFrom, deleteCount: r.aTo - r.aFrom, insert: newText.slice(r.bFrom, r.bTo) });
  };
  const middle = trimCommon(oldText, newText, { aFrom: 0, aTo: oldText.length, bFrom: 0, bTo: newText.length }, true);
  if (middle.aFrom === middle.aTo || middle.bFrom === middle.bTo) {
    splice(middle);
    return plan;
  }

  const aLines = lineStarts(oldText, middle.aFrom, middle.aTo);
  const bLines = lineStarts(newText, middle.bFrom, middle.bTo);
  const ids = new Map<string, number>();
  const idsOf = (text: string, starts: number[], add: boolean) => {
    const out = new Int32Array(starts.length - 1);
    for (let i = 0; i + 1 < starts.length; i++) {
      const line = text.slice(starts[i], starts[i + 1]);
      let id = ids.get(line);
      if (id === undefined) {
        id = add ? ids.size : -1;
        if (add) ids.set(line, id);
      }
      out[i] = id;
    }
    return out;
  };
  const aIds = idsOf(oldText, aLines, true);
  const bIds = idsOf(newText, bLines, false);
  // A line on one side only is in no common subsequence: leaving it out shrinks the diff without changing its answer.
  const inB = new Uint8Array(ids.size);
  for (const id of bIds) if (id >= 0) inB[id] = 1;
  const aKept: number[] = [];
  for (let i = 0; i < aIds.length; i++) if (inB[aIds[i]]) aKept.push(i);
  const bKept: number[] = [];
  for (let j = 0; j < bIds.length; j++) if (bIds[j] >= 0) bKept.push(j);

  const lineDiff = boundedDiff(aKept.map((i) => aIds[i]), bKept.map((j) => bIds[j]), budget);
  plan.work += lineDiff.work;
  plan.lineWork = lineDiff.work;
  if (lineDiff.runs === null) {
    plan.lineFallback = true;
    splice(middle);
    return plan;
  }
  // Matched lines, back in whole-line indices: each is a run of length one (kept lines need not be adjacent).
  const matched: CommonRun[] = [];
  for (const run of lineDiff.runs) {
    for (let t = 0; t < run.length; t++) matched.push({ aStart: aKept[run.aStart + t], bStart: bKept[run.bStart + t], length: 1 });
  }
  for (const hunk of gaps(matched, aIds.length, bIds.length)) {
    const r = { aFrom: aLines[hunk.aFrom], aTo: aLines[hunk.aTo], bFrom: bLines[hunk.bFrom], bTo: bLines[hunk.bTo] };
    refineHunk(oldText, newText, r, budget, plan, splice);
  }
  return plan;
}

/** One changed hunk: trimmed, then refined by code points when small and budget remains, else spliced whole. */
function refineHunk(a: string, b: string, hunk: Range, budget: number, plan: SplicePlan, splice: (r: Range) => void): void {
  const r = trimCommon(a, b, hunk);
  const size = r.aTo - r.aFrom + (r.bTo - r.bFrom);
  if (r.aFrom === r.aTo || r.bFrom === r.bTo) {
    splice(r);
    return;
  }
  if (size <= TEXT_DIFF_CHAR_HUNK_UNITS && plan.work < budget) {
    const aCodes = codePoints(a, r.aFrom, r.aTo);
    const bCodes = codePoints(b, r.bFrom, r.bTo);
    const charDiff = boundedDiff(aCodes.tokens, bCodes.tokens, budget - plan.work);
    plan.work += charDiff.work;
    if (charDiff.runs !== null) {
      plan.refinedHunks++;
      const edits = gaps(charDiff.runs, aCodes.tokens.length, bCodes.tokens.length).map((g) => ({
        aFrom: aCodes.starts[g.aFrom],
        aTo: aCodes.starts[g.aTo],
        bFrom: bCodes.starts[g.bFrom],
        bTo: bCodes.starts[g.bTo],
      }));
      for (const edit of absorbShortEqualities(edits)) splice(edit);
      return;
    }
  }
  plan.wholesaleHunks++;
  splice(r);
}

const editSize = (r: Range) => Math.max(r.aTo - r.aFrom, r.bTo - r.bFrom);

/**
 * Joins two edits (ascending unit ranges) when the text kept between them is no longer than either edit: "red" →
 * "blue" keeps its "e" by chance, and a rewritten sentence keeps its spaces; such confetti is one replacement to a
 * reader, costs more operations, and leaves a teammate's concurrent typing among stray letters. A real shared word
 * longer than the edits around it stays.
 */
function absorbShortEqualities(edits: Range[]): Range[] {
  const out: Range[] = [];
  for (const edit of edits) {
    const last = out[out.length - 1];
    if (last && edit.aFrom - last.aTo <= Math.min(editSize(last), editSize(edit))) {
      out[out.length - 1] = { aFrom: last.aFrom, aTo: edit.aTo, bFrom: last.bFrom, bTo: edit.bTo };
    } else {
      out.push(edit);
    }
  }
  return out;
}

/** The text the splices make of `text` (the reference the Automerge update must equal). */
export function applySplices(text: string, splices: readonly TextSplice[]): string {
  let out = "";
  let at = 0;
  for (const s of splices) {
    out += text.slice(at, s.index) + s.insert;
    at = s.index + s.deleteCount;
  }
  return out + text.slice(at);
}
