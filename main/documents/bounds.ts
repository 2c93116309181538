/**
 * Input bounds of the document service, each from shared/limits.ts. Titles count UTF-16 code units (as the zod
 * schema and the editor do); Markdown counts UTF-8 bytes (what storage and the wire carry).
 */
import { ChopinError } from "../../shared/errors.js";
import { DEFAULT_DOCUMENT_TITLE, MAX_DOCUMENT_MARKDOWN_BYTES, MAX_SEARCH_QUERY_CHARS, MAX_TITLE_CHARS } from "../../shared/limits.js";

/**
 * How long opening a teammate's plan that the team's list names, but that has not reached this device yet, waits for
 * it to arrive from the relay before saying it is not available (a plan listed a moment before its content came).
 */
export const TEAM_PLAN_ARRIVAL_WAIT_MS = 10_000;
/** How often, meanwhile, the relay is asked for it again (the relay answers "unavailable" until it has it). */
export const TEAM_PLAN_ARRIVAL_RETRY_MS = 250;

/**
 * Refuses text holding half of a UTF-16 surrogate pair: Automerge stores UTF-8, which cannot hold one, so it would be
 * saved as U+FFFD without a word (an agent's broken escaping, a string cut inside an emoji).
 */
function requireWellFormed(text: string, what: string): void {
  const lone = /\p{Surrogate}/u.exec(text);
  if (!lone) return;
  const code = lone[0].charCodeAt(0).toString(16).toUpperCase();
  throw new ChopinError(
    "invalid-input",
    `${what} contains half of a surrogate pair (\\u${code}) at character ${lone.index}, which is not valid Unicode; send the whole character.`,
    { index: lone.index },
  );
}

/** Bidirectional overrides and isolates, as a character-class range (title-from-markdown.ts and client-name.ts drop them). */
export const DIRECTION_CONTROL_RANGE = "\\u202a-\\u202e\\u2066-\\u2069";
const DIRECTION_CONTROLS = new RegExp(`[${DIRECTION_CONTROL_RANGE}]`, "u");
/** Format characters (zero-width spaces and joiners, direction marks) and white space: nothing anyone sees alone. */
const INVISIBLE = /[\p{Cf}\s]/gu;

/** Whether `text` holds a character someone can see (not only zero-width characters and spaces). */
export function hasVisibleCharacter(text: string): boolean {
  return text.replace(INVISIBLE, "").length > 0;
}

/** Trimmed title within 1..MAX_TITLE_CHARS. `fallback` replaces an empty title (creation); otherwise empty refuses. */
export function normalizeTitle(title: unknown, fallback?: string): string {
  if (title === undefined && fallback !== undefined) return fallback;
  if (typeof title !== "string") throw new ChopinError("invalid-input", "A title must be text.");
  requireWellFormed(title, "The title");
  // A title is one line: line breaks and tabs (an agent's or a paste's) become spaces; other control characters are
  // refused rather than stored where every list and header would show them.
  const oneLine = title.replace(/[\t\n\v\f\r]+/g, " ");
  if (/[\u0000-\u001f\u007f]/.test(oneLine)) {
    throw new ChopinError("invalid-input", "A title cannot contain control characters.");
  }
  // Direction overrides and isolates reorder what follows them in every list and header the title is shown in.
  if (DIRECTION_CONTROLS.test(oneLine)) {
    throw new ChopinError("invalid-input", "A title cannot contain direction override characters (U+202A–U+202E, U+2066–U+2069).");
  }
  const trimmed = oneLine.trim();
  if (trimmed.length === 0) {
    if (fallback !== undefined) return fallback;
    throw new ChopinError("invalid-input", "A title cannot be empty.");
  }
  // Only zero-width characters (or spaces) would be a title nobody can see or click in the list.
  if (!hasVisibleCharacter(trimmed)) {
    throw new ChopinError("invalid-input", "A title needs at least one visible character.");
  }
  if (trimmed.length > MAX_TITLE_CHARS) {
    throw new ChopinError("invalid-input", `A title can be at most ${MAX_TITLE_CHARS} characters.`, {
      limit: MAX_TITLE_CHARS,
      length: trimmed.length,
    });
  }
  return trimmed;
}

export function normalizeNewTitle(title: unknown): string {
  return normalizeTitle(title, DEFAULT_DOCUMENT_TITLE);
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * One line ending, "\n": the editor (CodeMirror) splits lines on "\r\n", "\r" and "\n" alike and counts each break
 * as one character, so a body holding "\r" put every edit after it one character early per "\r" (UX audit: an
 * agent's Windows-style plan). Every body that enters a document comes through here.
 */
export function normalizeLineEndings(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

/** Markdown with "\n" line endings within MAX_DOCUMENT_MARKDOWN_BYTES; refuses with 'too-large' above. */
/**
 * Validates a whole body. `allowedBytes`: a document already above the limit (edits merged from two devices can
 * each fit and together pass it) takes any body no larger than it is now, so it can still be edited back down, as the
 * editor's own limit allows (renderer/src/editor/body-size-limit.ts).
 */
export function checkMarkdown(input: unknown, allowedBytes = MAX_DOCUMENT_MARKDOWN_BYTES): string {
  if (typeof input !== "string") throw new ChopinError("invalid-input", "Markdown must be text.");
  requireWellFormed(input, "The Markdown");
  const markdown = normalizeLineEndings(input);
  const bytes = utf8Bytes(markdown);
  if (bytes > Math.max(MAX_DOCUMENT_MARKDOWN_BYTES, allowedBytes)) {
    throw new ChopinError(
      "too-large",
      `A document can hold at most ${MAX_DOCUMENT_MARKDOWN_BYTES} bytes of Markdown; this one has ${bytes}.`,
      { limit: MAX_DOCUMENT_MARKDOWN_BYTES, bytes },
    );
  }
  return markdown;
}

export function checkQuery(query: unknown): string {
  if (query === undefined) return "";
  if (typeof query !== "string") throw new ChopinError("invalid-input", "A search query must be text.");
  if (query.length > MAX_SEARCH_QUERY_CHARS) {
    throw new ChopinError("invalid-input", `A search query can be at most ${MAX_SEARCH_QUERY_CHARS} characters.`, {
      limit: MAX_SEARCH_QUERY_CHARS,
    });
  }
  return query.trim();
}
