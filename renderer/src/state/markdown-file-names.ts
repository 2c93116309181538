/** Which files the window takes as Markdown to import: by their name's ending, as the picker offers them. */
export const MARKDOWN_FILE_TYPES = [".md", ".markdown"] as const;

export function isMarkdownFileName(name: string): boolean {
  const lower = name.toLowerCase();
  return MARKDOWN_FILE_TYPES.some((ending) => lower.endsWith(ending));
}
