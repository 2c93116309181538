/**
 * The outline of a Markdown document: its headings in order, ATX (`#` to `######`) and setext (a paragraph line
 * underlined with `===` for level 1 or `---` for level 2), never inside code, quotes or lists, with inline markup
 * (emphasis, code spans, links) reduced to the words a reader sees. A whole parse of the text (not the editor's lazy
 * syntax tree) so the outline covers the whole document, not only what was parsed; it runs debounced.
 */
import { headingsOf } from "../../../shared/markdown-headings.js";

export { headingWords } from "../../../shared/markdown-headings.js";

export interface OutlineEntry {
  level: number;
  text: string;
  /** Offset of the heading line's start in the document (UTF-16 code units). */
  from: number;
}

/** The document's headings in order (shared/markdown-headings.ts: the Markdown parser the editor itself uses). */
export function extractOutline(markdown: string): OutlineEntry[] {
  return headingsOf(markdown);
}
