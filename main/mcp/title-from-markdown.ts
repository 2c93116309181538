/**
 * The title an agent's new plan gets when the agent names none: the text of the Markdown's first heading (agents
 * usually open with "# Plan name"), cut to MAX_TITLE_CHARS; undefined when the body has no heading, so the usual
 * default applies.
 */
import { MAX_TITLE_CHARS } from "../../shared/limits.js";

/** ATX headings of any level; the closing #s and emphasis markers are not part of the name. */
const HEADING = /^ {0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/;

export function titleFromMarkdown(markdown: string): string | undefined {
  let inFence = false;
  for (const line of markdown.split(/\r\n|\r|\n/, 200)) {
    if (/^ {0,3}(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const match = HEADING.exec(line);
    if (!match) continue;
    const text = match[1].replace(/[*_`]/g, "").trim();
    if (text) return [...text].slice(0, MAX_TITLE_CHARS).join("");
  }
  return undefined;
}
