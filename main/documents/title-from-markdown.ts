/**
 * The title an agent's new plan (or an imported file) gets when none is named: the words of the Markdown's first
 * heading, ATX or setext, as the editor's Markdown parser reads it (shared/markdown-headings.ts; a `#` line inside a
 * code fence is no heading); undefined when the body has no heading with text, so the usual default applies.
 * What must stay true: the result always passes the title's own check (bounds.ts normalizeTitle), since the agent
 * never sent it and cannot fix it: a body must not be refused for "a title" that is only the body's first line. So it
 * holds no control character (a tab or line-like one becomes a space, any other is dropped), no half of a surrogate
 * pair, no outer spaces, and at most MAX_TITLE_CHARS UTF-16 code units (what bounds.ts counts), cut between whole
 * characters as a person sees them (an emoji or an accented letter is never split).
 */
import { MAX_TITLE_CHARS } from "../../shared/limits.js";
import { headingsOf } from "../../shared/markdown-headings.js";
import { DIRECTION_CONTROL_RANGE, hasVisibleCharacter } from "./bounds.js";


/** Control characters that separate words (normalizeTitle turns these into spaces too), and Unicode's line breaks. */
const SPACING_CONTROLS = /[\t\n\v\f\r\u0085\u2028\u2029]+/gu;
/** Any other control character (C0, DEL, C1), any lone surrogate, and direction overrides (bounds.ts refuses them). */
const UNSHOWABLE = new RegExp(`[\\p{Cc}\\p{Surrogate}${DIRECTION_CONTROL_RANGE}]`, "gu");

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The longest run of whole characters from the start of `text` within MAX_TITLE_CHARS code units. */
function cutToLimit(text: string): string {
  if (text.length <= MAX_TITLE_CHARS) return text;
  let end = 0;
  for (const { segment } of graphemes.segment(text)) {
    if (end + segment.length > MAX_TITLE_CHARS) break;
    end += segment.length;
  }
  // A first "character" longer than the whole limit (a letter under hundreds of combining marks): cut by code point.
  if (end === 0) {
    for (const codePoint of text) {
      if (end + codePoint.length > MAX_TITLE_CHARS) break;
      end += codePoint.length;
    }
  }
  return text.slice(0, end);
}

/** Text (a heading's words, a file's name) as a title that passes the title's check, or "" when nothing showable is left. */
export function cleanTitle(raw: string): string {
  const text = raw.replace(SPACING_CONTROLS, " ").replace(UNSHOWABLE, "").trim();
  // Nothing visible left (zero-width characters only): no title, as for an empty heading (bounds.ts refuses one).
  if (!hasVisibleCharacter(text)) return "";
  return cutToLimit(text).trimEnd();
}

export function titleFromMarkdown(markdown: string): string | undefined {
  for (const heading of headingsOf(markdown)) {
    const title = cleanTitle(heading.text);
    if (title) return title;
  }
  return undefined;
}
