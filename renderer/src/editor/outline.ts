/**
 * The outline of a Markdown document: its ATX headings (`#` to `######`) in order, skipping fenced code blocks.
 * A plain line scan (not the lazy syntax tree) so the outline covers the whole document, not only what was parsed.
 */
export interface OutlineEntry {
  level: number;
  text: string;
  /** Offset of the heading line's start in the document (UTF-16 code units). */
  from: number;
}

export function extractOutline(markdown: string): OutlineEntry[] {
  const entries: OutlineEntry[] = [];
  let fence: string | null = null;
  let offset = 0;
  for (const line of markdown.split("\n")) {
    const fenceMatch = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1];
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
    } else if (fence === null) {
      const heading = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
      if (heading) entries.push({ level: heading[1].length, text: (heading[2] ?? "").trim(), from: offset });
    }
    offset += line.length + 1;
  }
  return entries;
}
