/**
 * UTF-8 size of JavaScript text, without encoding it (no allocation): the measure MAX_DOCUMENT_MARKDOWN_BYTES is
 * stated in, usable in the browser (the editor refuses edits past the limit) as well as in Node.
 * What must stay true: for a whole string the result equals Buffer.byteLength(text, "utf8") and TextEncoder's length
 * (a lone surrogate counts as U+FFFD, 3 bytes), and a range's count depends on its neighbours only for surrogate
 * pairing, so counting the parts of a string separately never drifts from counting it whole (see utf8RangeBytes).
 */

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * UTF-8 bytes of the code units text[start, end), with pairing judged against the whole string: a surrogate that
 * pairs with its neighbour (inside the range or not) counts 2 (a pair: 4), a lone one 3 (U+FFFD). Summing adjacent
 * ranges gives the whole string's count.
 */
export function utf8RangeBytes(text: string, start = 0, end = text.length): number {
  let bytes = 0;
  for (let i = start; i < end; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (isHigh(code)) bytes += i + 1 < text.length && isLow(text.charCodeAt(i + 1)) ? 2 : 3;
    else if (isLow(code)) bytes += i > 0 && isHigh(text.charCodeAt(i - 1)) ? 2 : 3;
    else bytes += 3;
  }
  return bytes;
}

/** UTF-8 bytes of the whole string (= Buffer.byteLength(text, "utf8")). */
export function utf8Bytes(text: string): number {
  return utf8RangeBytes(text, 0, text.length);
}
