/**
 * What a Planner turn is given of the conversation (issue #26, the seed's "Conversation context"): never the whole
 * transcript. A turn gets the backscroll, the messages since the Planner last spoke, bounded by
 * PLANNER_BACKSCROLL_MAX_ENTRIES and normally PLANNER_BACKSCROLL_MAX_CHARS (the newest message is kept whole even when
 * it alone is longer); a session made afresh (after a restart, a credential change, a reset, `/new`) is bootstrapped
 * from at most PLANNER_BOOTSTRAP_MAX_ENTRIES of the latest entries and PLANNER_BOOTSTRAP_MAX_CHARS, only from after
 * the session's boundary and before the message it answers (issue #27's bounded replay). The plan itself is read
 * through read_plan, never put here.
 *
 * A processed `/new` is a boundary where the person sent it, not where its boundary entry happens to sort: a follow-up
 * sent right after `/new` (before the app processed it) sorts before the boundary entry, and must still get nothing of
 * the session before. Nor does a fresh session replay what an earlier session wrote after that point (a stopped turn's
 * stop record, a begun mark: Planner entries of a lower session generation), nor a withdrawn message. So no question
 * the agent asked in the old session (questions are text: there is no question tool) is put to the new one.
 *
 * What must stay true: entries are chosen from the newest backwards and given oldest first; an entry is given whole or
 * not at all; nothing before the last session boundary is given; only entries that are given are rendered (finding
 * the boundary is one cheap test per entry back to it), so a 10,000-entry transcript stays well inside a millisecond
 * budget (npm run bench -- planner).
 */
import type { ConversationEntry } from "../../shared/schema/conversation.js";
import { PLANNER_BACKSCROLL_MAX_CHARS, PLANNER_BACKSCROLL_MAX_ENTRIES, PLANNER_BOOTSTRAP_MAX_CHARS, PLANNER_BOOTSTRAP_MAX_ENTRIES } from "../util/limits.js";

/** A session boundary: the system entry a reset writes, or the Planner's entry for a processed `/new`. */
export function isSessionBoundary(entry: ConversationEntry): boolean {
  return entry.boundary === true || (entry.author.kind === "system" && entry.sessionGeneration !== undefined);
}

/** The command that starts a new Planner session, sent as a message to the Planner. */
export const NEW_SESSION_COMMAND = "/new";

/** The `/new` messages that were processed: the ids their boundary entries answer. */
export function boundaryCommands(entries: readonly ConversationEntry[]): Set<string> {
  const commands = new Set<string>();
  for (const entry of entries) if (entry.boundary === true && entry.turnId !== undefined) commands.add(entry.turnId);
  return commands;
}

/**
 * Every line of an entry's own text starts with this, so nothing a message says can stand at the start of a line as a
 * header of its own (source trust: a person's text cannot pose as the Planner or as another person, and the Planner's
 * earlier words cannot pose as a person's request).
 */
export const CONTENT_MARK = "│ ";

/** A name in a header: brackets and line breaks could make it read as more than one name. */
const headerName = (name: string) => name.replace(/[[\]]/g, (c) => (c === "[" ? "(" : ")")).replace(/\s+/g, " ");

function header(entry: ConversationEntry): string {
  const { author } = entry;
  if (author.kind === "planner") return "[Planner, earlier: your own words, not a request]";
  if (author.kind === "system") return "[Chopin notice]";
  const who = `${headerName(author.name)}${author.login ? ` (@${author.login})` : ""}`;
  return `[${who}${entry.to === "planner" ? " to the Planner" : ""}]`;
}

/**
 * One entry as the model reads it: a header naming who wrote it (people by name and login, never merged) and to whom,
 * then its text, every line marked as content; a person's quoted lines ("> ...") are marked as quoted; the documents
 * a message references are listed for read_reference as evidence.
 */
export function renderEntry(entry: ConversationEntry): string {
  const quoting = entry.author.kind === "person";
  const lines = entry.text.split("\n").map((line) => `${CONTENT_MARK}${quoting && /^\s*>/.test(line) ? "(quoted) " : ""}${line}`);
  const references = (entry.references ?? []).map((r) => `“${headerName(r.title)}” (document ${r.documentId}, revision ${r.revision} when sent)`);
  if (references.length > 0) lines.push(`${CONTENT_MARK}(references for read_reference, evidence only: ${references.join("; ")})`);
  return `${header(entry)}\n${lines.join("\n")}`;
}

interface Bounds {
  maxEntries: number;
  maxChars: number;
  /** Keep the newest entry even when it alone is longer than maxChars. */
  newestWhole: boolean;
  /** Entries to pass over (not given, not counted). */
  skip?: (entry: ConversationEntry) => boolean;
}

/**
 * The latest entries of `entries` (sorted oldest first) after index `from`, within the bounds, oldest first. Walks
 * back from the newest and stops at the first entry that does not fit: a gap in the middle would misquote the talk.
 */
function latest(entries: readonly ConversationEntry[], from: number, bounds: Bounds): ConversationEntry[] {
  const chosen: ConversationEntry[] = [];
  let chars = 0;
  for (let i = entries.length - 1; i > from && chosen.length < bounds.maxEntries; i--) {
    if (bounds.skip?.(entries[i]!)) continue;
    const length = renderEntry(entries[i]!).length;
    const fits = chars + length <= bounds.maxChars || (chosen.length === 0 && bounds.newestWhole);
    if (!fits) break;
    chosen.push(entries[i]!);
    chars += length;
  }
  return chosen.reverse();
}

/** Index of the last entry matching `test`, looking back from the newest; -1 when none does. */
function lastIndex(entries: readonly ConversationEntry[], test: (entry: ConversationEntry) => boolean): number {
  for (let i = entries.length - 1; i >= 0; i--) if (test(entries[i]!)) return i;
  return -1;
}

/** The messages since the Planner last spoke (or since the session began), bounded. */
export function backscroll(entries: readonly ConversationEntry[]): ConversationEntry[] {
  const from = lastIndex(entries, (entry) => entry.author.kind === "planner" || isSessionBoundary(entry));
  return latest(entries, from, { maxEntries: PLANNER_BACKSCROLL_MAX_ENTRIES, maxChars: PLANNER_BACKSCROLL_MAX_CHARS, newestWhole: true });
}

/**
 * What a session made afresh is given: the latest entries after the last session boundary, bounded. `commands` are
 * the processed `/new` messages of the whole conversation (boundaryCommands), each a boundary where it stands;
 * `sessionGeneration` is the session's: an entry an earlier session wrote is not given, nor a boundary, nor a
 * withdrawn message.
 */
export function bootstrap(entries: readonly ConversationEntry[], session: { commands?: ReadonlySet<string>; sessionGeneration?: number } = {}): ConversationEntry[] {
  const commands = session.commands ?? new Set<string>();
  const from = lastIndex(entries, (entry) => isSessionBoundary(entry) || commands.has(entry.id));
  const generation = session.sessionGeneration;
  const skip = (entry: ConversationEntry) =>
    isSessionBoundary(entry) || entry.withdrawnAt !== undefined || (generation !== undefined && entry.sessionGeneration !== undefined && entry.sessionGeneration < generation);
  return latest(entries, from, { maxEntries: PLANNER_BOOTSTRAP_MAX_ENTRIES, maxChars: PLANNER_BOOTSTRAP_MAX_CHARS, newestWhole: false, skip });
}
