/**
 * A plan leaving or entering the window as a Markdown file: saving a text as a download (the browser's, or Electron's
 * save dialog) and asking the person for files with the system's picker. The core makes and reads the files' content
 * (exportMarkdown, importMarkdown); this only moves bytes between it and the person's disk.
 */

import { MARKDOWN_FILE_TYPES } from "../state/markdown-file-names.js";

/** Offers `text` as a file named `fileName` (a download: the person chooses where, or their downloads folder). */
export function saveTextFile(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/markdown;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file over: revoking at once can cancel the download in some engines.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Opens the system's file picker for Markdown files (must run in a person's gesture); resolves with what they chose. */
export function pickMarkdownFiles(): Promise<File[]> {
  return new Promise((resolve) => {
    const input = document.createElement("input");
    input.type = "file";
    input.multiple = true;
    input.accept = [...MARKDOWN_FILE_TYPES, "text/markdown"].join(",");
    input.hidden = true;
    input.addEventListener("change", () => {
      resolve([...(input.files ?? [])]);
      input.remove();
    });
    input.addEventListener("cancel", () => {
      resolve([]);
      input.remove();
    });
    document.body.append(input);
    input.click();
  });
}
