/**
 * Plans as Markdown files, leaving and entering the app (issue #24): export gives the plan's Markdown with its title as
 * the first heading (unless the body already opens with that heading) and a file name made from the title; import
 * reads a `.md` file's bytes as a new private plan titled from its first heading (shared/markdown-headings.ts), else
 * from the file's name.
 *
 * What must stay true: an imported file is refused whole, with a sentence naming it, when it is not UTF-8 text or is
 * over MAX_DOCUMENT_MARKDOWN_BYTES, and nothing of it is kept; an import is always private (shared later, by choice);
 * nothing of the file is lost (its whole text is the body; a byte-order mark is not text and goes).
 */
import type { MarkdownFile, MarkdownFileInput } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import { DEFAULT_DOCUMENT_TITLE, MAX_DOCUMENT_MARKDOWN_BYTES } from "../../shared/limits.js";
import { headingsOf } from "../../shared/markdown-headings.js";
import { cleanTitle, titleFromMarkdown } from "./title-from-markdown.js";

/** Longest file name stem an export suggests (most file systems allow 255 bytes; an extension and a suffix fit). */
export const MAX_EXPORT_FILE_STEM_CHARS = 120;
/** Longest file name an import names in a sentence (a path from a drop can be long). */
const MAX_NAMED_FILE_CHARS = 80;

/** Characters no common file system takes in a name, and control characters. */
const NOT_IN_FILE_NAMES = /[\\/:*?"<>|\p{Cc}\p{Cf}]/gu;

export function exportFileName(title: string): string {
  const stem = [...title.replace(NOT_IN_FILE_NAMES, " ").replace(/\s+/g, " ").trim().replace(/^\.+/, "")]
    .slice(0, MAX_EXPORT_FILE_STEM_CHARS)
    .join("")
    .trim();
  return `${stem || DEFAULT_DOCUMENT_TITLE}.md`;
}

/** The plan as one Markdown text: its title as the first heading, unless the body already opens with it. */
export function exportMarkdown(title: string, body: string): MarkdownFile {
  const first = headingsOf(body)[0];
  const opensWithTitle = first !== undefined && first.text === title.trim() && body.slice(0, first.from).trim() === "";
  const markdown = opensWithTitle || title.trim() === "" ? body : `# ${title.trim()}\n\n${body}`;
  return { fileName: exportFileName(title), markdown };
}

function named(name: string): string {
  const shown = [...name.replace(NOT_IN_FILE_NAMES, "")].slice(0, MAX_NAMED_FILE_CHARS).join("");
  return `“${shown || "The file"}”`;
}

/** A file's bytes as a plan's title and body, or a refusal naming the file. */
export function readMarkdownFile(input: MarkdownFileInput): { title: string; markdown: string } {
  const bytes = Buffer.from(input.contentBase64, "base64");
  if (bytes.byteLength > MAX_DOCUMENT_MARKDOWN_BYTES) {
    throw new ChopinError(
      "too-large",
      `${named(input.name)} is ${Math.ceil(bytes.byteLength / 1024)} KB, more than the ${MAX_DOCUMENT_MARKDOWN_BYTES / 1024} KB a plan holds, so it was not imported.`,
      { limit: MAX_DOCUMENT_MARKDOWN_BYTES, bytes: bytes.byteLength },
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ChopinError("invalid-input", `${named(input.name)} is not UTF-8 text, so it was not imported. Save it as UTF-8 and import it again.`);
  }
  const stem = input.name.replace(/\.(md|markdown|mdown|txt)$/i, "").trim();
  const title = titleFromMarkdown(text) ?? (cleanTitle(stem) || DEFAULT_DOCUMENT_TITLE);
  return { title, markdown: text };
}
