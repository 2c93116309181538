/**
 * Every change the service makes records the local actor's display name in the document's `authors` map, so the
 * version history can name who did what. Writing only when the name differs keeps changes free of churn.
 * What must stay true: a name is recorded by assigning a new value, never by editing the old one in place; the
 * history finds the name each change was made under by walking those assignments (names-as-made.ts).
 *
 * A coding agent's writes (over MCP) run on this device's actor too, so they are named per change instead, in the
 * change's message (change-messages.ts).
 */
import { next as A } from "@automerge/automerge";
import { MAX_DISPLAY_NAME_CHARS } from "../../shared/limits.js";
import type { PlanDocument } from "../../shared/schema/plan-document.js";

export const UNKNOWN_AUTHOR = "Unknown author";

/** Call inside a change: names the actor making it. */
export function stampAuthor(doc: PlanDocument, displayName: string): void {
  const name = displayName.trim().slice(0, MAX_DISPLAY_NAME_CHARS) || UNKNOWN_AUTHOR;
  const actor = A.getActorId(doc);
  if (!doc.authors) doc.authors = {};
  if (doc.authors[actor] !== name) doc.authors[actor] = name;
}
