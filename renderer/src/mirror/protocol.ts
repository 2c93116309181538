/**
 * The messages between an editor mirror (the page's CodeMirror, main thread) and the text authority that owns the
 * document's replica (a worker). Versions count the authority's accepted updates since the session began: version 0
 * is the text the mirror was created with. ChangeSets travel as their JSON form (structured-clone safe).
 * What must stay true: the authority sends every accepted update exactly once, in order; a mirror's updates carry
 * the version they were made against, and the authority rebases them over whatever it accepted since.
 */
import { ChangeSet } from "@codemirror/state";
import { checkedMarks, type ChangeMark } from "./change-marks.js";

export interface WireUpdate {
  clientID: string;
  changes: ReturnType<ChangeSet["toJSON"]>;
  /** The Planner's change marks this update brought (change-marks.ts), in the text after it; only from the authority. */
  marks?: ChangeMark[];
}

export type MirrorToAuthority =
  /** Every update the mirror has not seen confirmed, made against `version`. */
  | { type: "push"; version: number; updates: WireUpdate[] }
  /** The mirror holds every update before `version` (the authority may forget them). */
  | { type: "synced"; version: number }
  /** Send again every update from `version` on (the mirror missed some). */
  | { type: "pull"; version: number };

export type AuthorityToMirror =
  /** Accepted updates `version`, `version + 1`, ... in order. */
  | { type: "updates"; version: number; updates: WireUpdate[] }
  /** A push was taken (its updates, if new, came before this in an "updates" message). */
  | { type: "pushed" }
  /** The session's version 0, for a mirror that had no text to start from. */
  | { type: "base"; text: string }
  /** The authority cannot go on with this session (a sentence for the person); the mirror stops sending. */
  | { type: "failed"; code: string; message: string };

export interface Update {
  clientID: string;
  changes: ChangeSet;
  marks?: ChangeMark[];
}

export function toWire(update: { clientID: string; changes: ChangeSet; marks?: ChangeMark[] }): WireUpdate {
  const wire: WireUpdate = { clientID: update.clientID, changes: update.changes.toJSON() };
  if (update.marks && update.marks.length > 0) wire.marks = update.marks;
  return wire;
}

/** Null for an update that is not a well-formed ChangeSet (a message from something else); malformed marks are dropped. */
export function fromWire(update: WireUpdate): Update | null {
  try {
    if (typeof update?.clientID !== "string") return null;
    const changes = ChangeSet.fromJSON(update.changes);
    if (update.marks === undefined) return { clientID: update.clientID, changes };
    const marks = checkedMarks(update.marks, changes.newLength);
    return marks.length > 0 ? { clientID: update.clientID, changes, marks } : { clientID: update.clientID, changes };
  } catch {
    return null;
  }
}

/** One end of a mirror session's channel (a MessagePort, or the session's slot on a shared worker link). */
export interface MirrorChannel<Out, In> {
  post(message: Out): void;
  listen(listener: (message: In) => void): () => void;
}
