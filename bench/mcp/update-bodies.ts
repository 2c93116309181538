/**
 * The bodies the MCP suite's update_document rows alternate between, all derived from the same deterministic 100 KB
 * plan (bench/lib/markdown-doc.ts), so each call is the same kind of edit: one line changed, a revision scattered
 * over the plan (every 50th line), or the whole body rewritten (every letter shifted: same shape, blank lines and
 * list markers, but no line left the same). No randomness: the same input every run.
 */
import { makeMarkdown } from "../lib/markdown-doc.js";

/** Every line index `every` apart gets " (revised)" at its end. */
function reviseLines(body: string, every: number): string {
  return body
    .split("\n")
    .map((line, i) => (i % every === every - 1 && line.length > 0 ? `${line} (revised)` : line))
    .join("\n");
}

/** Each lowercase letter shifted 7 places: a rewrite of every non-blank line, in the same layout. */
function rewriteLetters(body: string): string {
  return body.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + 7) % 26) + 97));
}

export interface UpdateCase {
  row: string;
  /** The two bodies a row alternates between (the document starts as the first). */
  bodies: [string, string];
}

export function updateCases(chars: number): UpdateCase[] {
  const base = makeMarkdown(chars);
  const lines = base.split("\n");
  const middle = Math.floor(lines.length / 2);
  const oneLine = [...lines.slice(0, middle), `${lines[middle]} (revised)`, ...lines.slice(middle + 1)].join("\n");
  const kb = Math.round(chars / 1000);
  return [
    { row: `update_document, one line changed in ${kb} KB (product server)`, bodies: [base, oneLine] },
    { row: `update_document, every 50th line changed in ${kb} KB (product server)`, bodies: [base, reviseLines(base, 50)] },
    { row: `update_document, ${kb} KB body rewritten entirely (product server)`, bodies: [base, rewriteLetters(base)] },
  ];
}
