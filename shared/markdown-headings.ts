/**
 * The headings of a Markdown text as the Markdown parser the editor ships reads them (@lezer/markdown with GitHub's
 * extensions): ATX (`#` to `######`) and setext (text underlined with `===` or `---`), never a line inside fenced or
 * indented code, a quote or a list. Shared by the window's outline and the core's titles (an agent's plan, an imported
 * file), so both agree on what a heading is; before, each had its own line scan, and the core's missed setext headings.
 *
 * What must stay true: only the document's top-level headings count; `text` is the words a reader sees (emphasis,
 * code spans and links reduced to their words); `from` is the heading's offset in UTF-16 code units.
 */
import { GFM, parser as commonMark } from "@lezer/markdown";

const parser = commonMark.configure(GFM);

export interface MarkdownHeading {
  level: number;
  text: string;
  /** Offset of the heading's first line in the text (UTF-16 code units). */
  from: number;
}

const LEVELS: Record<string, number> = {
  ATXHeading1: 1,
  ATXHeading2: 2,
  ATXHeading3: 3,
  ATXHeading4: 4,
  ATXHeading5: 5,
  ATXHeading6: 6,
  SetextHeading1: 1,
  SetextHeading2: 2,
};

/** The words of a heading as a reader sees them: `**Real** *emph*` -> `Real emph`. */
export function headingWords(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`+([^`]*?)`+/g, "$1")
    .replace(/(\*\*|__|~~)(?=\S)(.+?)(?<=\S)\1/g, "$2")
    .replace(/(^|[^\w*])\*(?=\S)(.+?)(?<=\S)\*(?!\w)/g, "$1$2")
    .replace(/(^|\W)_(?=\S)(.+?)(?<=\S)_(?!\w)/g, "$1$2")
    .replace(/\s+/g, " ")
    .trim();
}

export function headingsOf(markdown: string): MarkdownHeading[] {
  const headings: MarkdownHeading[] = [];
  const cursor = parser.parse(markdown).topNode.cursor();
  if (!cursor.firstChild()) return headings;
  do {
    const level = LEVELS[cursor.name];
    if (level === undefined) continue;
    // The heading's text is what lies between its marks (the `#`s before and after, or the setext underline).
    let start = cursor.from;
    let end = cursor.to;
    const marks = cursor.node.cursor();
    if (marks.firstChild()) {
      do {
        if (marks.name !== "HeaderMark") continue;
        if (marks.from === cursor.from) start = marks.to;
        else end = Math.min(end, marks.from);
      } while (marks.nextSibling());
    }
    headings.push({ level, text: headingWords(markdown.slice(start, end)), from: cursor.from });
  } while (cursor.nextSibling());
  return headings;
}

/** The first heading with words, or undefined. */
export function firstHeadingText(markdown: string): string | undefined {
  return headingsOf(markdown).find((heading) => heading.text !== "")?.text;
}
