/**
 * Which of a plan's changes are the Planner's edits (issue #26), so every window that has the plan open can mark what
 * the Planner did as it arrives. Read from what the fenced write records (main/planner/plan-publisher.ts), never
 * guessed from timing: the change's message is PLANNER_CHANGE_MESSAGE ("agent: Planner", the message
 * agentChangeMessage gives the Planner, which the history lists as "Planner (agent)") and its actor, one made for that
 * write alone (fenced-writer.ts), is named PLANNER_AUTHOR in the plan's `authors` by that same change.
 *
 * Both, because either alone is not the Planner's: a coding agent whose MCP client calls itself "Planner" writes with
 * that message on this device's actor (named after the person), and a person may call themselves "Planner".
 *
 * Cheap enough for every change that arrives (a teammate's keystroke): only the changes since the given heads are
 * fetched, and only their headers read (change-header.ts); a hash is computed for a Planner change alone.
 * What must stay true: a person's change is never reported; plan-publisher's writes always are
 * (main/planner/plan-publisher.test.ts writes one through the real fenced writer).
 */
import { next as A } from "@automerge/automerge";
import { changesSince } from "./automerge-changes.js";
import { readChangeHeader, type ChangeHeader } from "./change-header.js";
import { checkedChangeHashes } from "./fast-link/change-hash.js";

/** The name the Planner's actor carries in a plan's authors. */
export const PLANNER_AUTHOR = "Planner";
/** The message of every change the Planner makes to a plan (agentChangeMessage({ agent: PLANNER_AUTHOR })). */
export const PLANNER_CHANGE_MESSAGE = `agent: ${PLANNER_AUTHOR}`;

/** One Planner change: its hash, and the heads it was made on (its dependencies). */
export interface PlannerChange {
  hash: string;
  deps: string[];
}

/** The Planner's changes among those `doc` has beyond `heads`, in the order Automerge applied them. */
export function plannerChangesSince(doc: A.Doc<{ authors?: Record<string, string> }>, heads: readonly string[]): PlannerChange[] {
  const found: PlannerChange[] = [];
  for (const bytes of changesSince(doc, heads)) {
    const header = headerOf(bytes);
    if (header?.message !== PLANNER_CHANGE_MESSAGE || doc.authors?.[header.actor] !== PLANNER_AUTHOR) continue;
    const hash = checkedChangeHashes([bytes])?.[0];
    if (hash !== undefined) found.push({ hash, deps: header.deps });
  }
  return found;
}

/** The header, from the bytes when they are an uncompressed change (what A.getChanges gives), else decoded. */
function headerOf(bytes: Uint8Array): ChangeHeader | null {
  try {
    const read = readChangeHeader(bytes);
    if (read) return read.header;
    const change = A.decodeChange(bytes);
    return { deps: change.deps, actor: change.actor, seq: change.seq, startOp: change.startOp, time: change.time, message: change.message ?? null };
  } catch {
    return null;
  }
}
