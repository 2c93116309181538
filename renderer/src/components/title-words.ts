/**
 * What the title fields say when they do not take what was typed: MAX_TITLE_CHARS reached (the field stops input
 * there), or an emptied title (a title cannot be empty, so the previous one is kept). One wording for the header's
 * field and the sidebar's rename.
 */
import { MAX_TITLE_CHARS } from "../../../shared/limits.js";

export const TITLE_LIMIT_WORDS = `Titles are at most ${MAX_TITLE_CHARS} characters.`;

export function emptyTitleWords(kept: string): string {
  return `A title cannot be empty; kept “${kept}”.`;
}
