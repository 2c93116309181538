/**
 * The outline of a Markdown document: its headings in order, ATX (`#` to `######`) and setext (a paragraph line
 * underlined with `===` for level 1 or `---` for level 2), skipping fenced code blocks, with inline markup (emphasis,
 * code spans, links) reduced to the words a reader sees.
 * A plain line scan (not the lazy syntax tree) so the outline covers the whole document, not only what was parsed.
 */
export interface OutlineEntry {
  level: number;
  text: string;
  /** Offset of the heading line's start in the document (UTF-16 code units). */
  from: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
/** Lines that are blocks of their own, so an underline below them is not a setext heading. */
const NOT_PARAGRAPH = /^(?: {4,}|\t| {0,3}(?:[>#]|[-*+][ \t]|\d{1,9}[.)][ \t]|(?:[-*_][ \t]*){3,}$|`{3,}|~{3,}))/;

/** The words of a heading as a reader sees them: `**Real** *emph*` -> `Real emph`. */
export function headingWords(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`+([^`]*?)`+/g, "$1")
    .replace(/(\*\*|__|~~)(?=\S)(.+?)(?<=\S)\1/g, "$2")
    .replace(/(^|[^\w*])\*(?=\S)(.+?)(?<=\S)\*(?!\w)/g, "$1$2")
    .replace(/(^|\W)_(?=\S)(.+?)(?<=\S)_(?!\w)/g, "$1$2")
    .trim();
}

export function extractOutline(markdown: string): OutlineEntry[] {
  const entries: OutlineEntry[] = [];
  let fence: string | null = null;
  let offset = 0;
  /** The previous line while it may be a setext heading's text (a paragraph line outside code), else null. */
  let paragraph: { text: string; from: number } | null = null;
  for (const line of markdown.split("\n")) {
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1];
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      paragraph = null;
    } else if (fence === null) {
      const heading = ATX.exec(line);
      const underline = SETEXT_UNDERLINE.exec(line);
      if (heading) {
        entries.push({ level: heading[1].length, text: headingWords(heading[2] ?? ""), from: offset });
        paragraph = null;
      } else if (underline && paragraph) {
        entries.push({ level: underline[1][0] === "=" ? 1 : 2, text: headingWords(paragraph.text), from: paragraph.from });
        paragraph = null;
      } else {
        paragraph = line.trim() === "" || NOT_PARAGRAPH.test(line) ? null : { text: line, from: offset };
      }
    }
    offset += line.length + 1;
  }
  return entries;
}
