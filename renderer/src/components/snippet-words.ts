/**
 * A body match's snippet as a person should read it in the list: the core cuts it from the raw Markdown
 * (main/documents/search.ts), so "# Design 7 Body 7…" would show heading marks, task brackets, emphasis and link
 * syntax. This strips that syntax for display only; the words and the ellipses stay.
 * What must stay true: only Markdown syntax goes, never words (a "-" between words, a snake_case name are kept).
 */

/** Where a Markdown line could have started: the snippet's start (after its "…") or any space (lines were joined). */
const LINE_START = "(^…?|\\s)";

export function snippetWords(snippet: string): string {
  return (
    snippet
      // Images and links: their text stays, the target goes.
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      // Headings, quotes and task markers where a line began.
      .replace(new RegExp(`${LINE_START}#{1,6}(?=\\s|$)`, "g"), "$1")
      .replace(new RegExp(`${LINE_START}>(?=\\s)`, "g"), "$1")
      .replace(new RegExp(`${LINE_START}(?:[-*+]|\\d{1,9}[.)])\\s+\\[[ xX]\\](?=\\s|$)`, "g"), "$1")
      // A list marker only at the very start: between words a "-" may be a dash in prose.
      .replace(/^(…?)\s*(?:[-*+]|\d{1,9}[.)])\s+/, "$1")
      // Code fences, then emphasis and inline code marks around words.
      .replace(/`{3,}[\w-]*/g, "")
      .replace(/(\*\*|__|~~)(?=\S)(.+?)(?<=\S)\1/g, "$2")
      .replace(/(^|[^\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])/g, "$1$2")
      .replace(/(^|[^\w_])_(?=\S)([^_]+?)(?<=\S)_(?![\w_])/g, "$1$2")
      .replace(/`([^`]+)`/g, "$1")
      .replace(/\s{2,}/g, " ")
      .replace(/^(…?)\s+/, "$1")
      .trim()
  );
}
