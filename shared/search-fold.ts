/**
 * How search compares text: case and accents ignored ("cafe" finds "Café", "uberblick" finds "Überblick"), one code
 * point for one code point, so a position found in the folded text is the same position in the original (SQLite's
 * instr and substr count code points; the snippet is cut from the original text). A character whose folded form
 * would be longer or shorter (a lone combining mark, "İ", ligatures) is kept as it is; so is anything outside the
 * Basic Multilingual Plane.
 */

const ASCII = /^[\x00-\x7f]*$/;
/** Per UTF-16 unit: ASCII capitals and everything above ASCII (a surrogate half folds to itself). */
const FOLDABLE = /[A-Z\u0080-\uffff]/g;
const folded = new Map<string, string>();

function foldUnit(ch: string): string {
  let out = folded.get(ch);
  if (out !== undefined) return out;
  const base = ch.normalize("NFD").replace(/\p{M}/gu, "");
  const letter = base.length === 1 ? base : ch;
  const lower = letter.toLowerCase();
  out = lower.length === 1 ? lower : letter;
  folded.set(ch, out);
  return out;
}

export function foldForSearch(text: string): string {
  return ASCII.test(text) ? text.toLowerCase() : text.replace(FOLDABLE, foldUnit);
}

/** The words of a query, folded (a decomposed "é" typed or pasted counts as "é"); empty for a blank query. */
export function searchWords(query: string): string[] {
  return [...new Set(foldForSearch(query.normalize("NFC")).split(/\s+/).filter(Boolean))];
}

/** Whether folded `text` holds every word (in any order, anywhere). */
export function holdsAllWords(foldedText: string, words: readonly string[]): boolean {
  return words.every((word) => foldedText.includes(word));
}
