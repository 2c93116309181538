/**
 * The name each change was made under. `authors[actor]` is rewritten whenever the name an actor writes under differs
 * from the recorded one (authors.ts for the core's changes, renderer/src/editor/edit-metadata.ts for typing in a
 * window), so the map's CURRENT value only says what an actor is called now: read alone, it would relabel every
 * version a person made before renaming herself. For each change this finds the name its actor had recorded then:
 * - a change that records a name is made under it (the core records it inside the change it names);
 * - a change whose actor's next change records a name and nothing else (only `authors`/`updatedAt`) is made under
 *   that name: the editor records the name in a change of its own right after the edit it names;
 * - otherwise, the last name the actor recorded before it;
 * - none recorded yet: absent, and the caller falls back as it did before (the current map, then "Unknown author").
 *
 * How, for documents with thousands of changes and hundreds of actors (every window session is a new actor): each
 * actor's records form a chain. The current value's op id names the change that recorded it; the value just before
 * that change (`getAll` at its deps) names the record before, and so on. So the cost is two small calls into
 * Automerge's backend per recorded name (~0.05 ms each here, whatever the history's length) plus one pass over the
 * change metadata the caller already has. A.diffPath and A.view were measured and refused: both cost time in
 * proportion to the changes between the states compared once histories are concurrent (7 ms per call at 6,000
 * changes by 300 actors). Changes are never decoded, except a small one that records a new name right after an edit
 * (decoding costs ~0.2 ms for a small change and can take a second for a big one: a 100 KB body). Only the actor's
 * own records count; a value another actor wrote ends the chain.
 */
import { next as A } from "@automerge/automerge";
import type { ChangeMeta as FullChangeMeta } from "../../shared/node/change-meta.js";
import { MAX_DISPLAY_NAME_CHARS } from "../../shared/limits.js";

export type ChangeMeta = Pick<FullChangeMeta, "actor" | "seq" | "hash" | "startOp" | "maxOp" | "deps">;

/**
 * The most ops a change that records a name and nothing else can hold: a new `authors` map, the name's text object,
 * one op per character, and `updatedAt`. A bigger change is never taken for one (and is not decoded).
 */
export const MAX_NAME_RECORD_OPS = MAX_DISPLAY_NAME_CHARS + 3;

type Backend = ReturnType<typeof A.getBackend>;
type OwnValue = { counter: number; text?: string; objectId?: string };

/** Change hash -> the name its actor had recorded when it was made; changes with none recorded yet are absent. */
export function namesAsMade(doc: A.Doc<unknown>, metas: readonly ChangeMeta[]): Map<string, string> {
  const names = new Map<string, string>();
  const authors = (doc as { authors?: unknown }).authors;
  const authorsId = authors && typeof authors === "object" ? A.getObjectId(authors) : null;
  if (!authorsId) return names;
  const backend = A.getBackend(doc);
  const byActor = new Map<string, ChangeMeta[]>();
  for (const meta of metas) {
    const list = byActor.get(meta.actor);
    if (list) list.push(meta);
    else byActor.set(meta.actor, [meta]);
  }
  for (const actor of Object.keys(authors as object)) {
    const changes = byActor.get(actor);
    if (!changes) continue;
    changes.sort((a, b) => a.seq - b.seq);
    const recorded = recordedNames(backend, authorsId, actor, changes);
    let current: string | undefined;
    changes.forEach((change, i) => {
      current = recorded.get(i) ?? current;
      if (current !== undefined) names.set(change.hash, current);
    });
    for (const [i, name] of recorded) {
      if (i === 0 || recorded.has(i - 1)) continue;
      // Decoding is skipped where it cannot matter: the change before is called `name` anyway (as made or, with
      // none recorded, by the current map the caller falls back to).
      const otherwise = names.get(changes[i - 1].hash) ?? (authors as Record<string, unknown>)[actor];
      if (otherwise !== name && recordsNameOnly(doc, changes[i], authorsId)) names.set(changes[i - 1].hash, name);
    }
  }
  return names;
}

/** Index in `changes` (one actor's, in seq order) -> the name that change recorded for the actor, newest first. */
function recordedNames(backend: Backend, authorsId: string, actor: string, changes: readonly ChangeMeta[]): Map<number, string> {
  const found = new Map<number, string>();
  let heads: string[] | undefined;
  // Each step moves to a strictly earlier change of the actor, so the walk ends within changes.length steps.
  for (let step = 0; step < changes.length; step += 1) {
    let values: ReturnType<Backend["getAll"]>;
    try {
      values = backend.getAll(authorsId, actor, heads);
    } catch {
      break; // no authors map at that state: nothing older to read
    }
    const own = latestOwnValue(values, actor);
    const at = own ? changeAt(changes, own.counter) : -1;
    if (!own || at < 0 || found.has(at)) break;
    const name = own.text ?? backend.text(own.objectId!, [changes[at].hash]);
    if (name) found.set(at, name);
    heads = [...changes[at].deps];
    if (heads.length === 0) break;
  }
  return found;
}

/** The actor's own newest value among concurrent ones: its op counter and either the string or its text object. */
function latestOwnValue(values: ReturnType<Backend["getAll"]>, actor: string): OwnValue | null {
  let best: OwnValue | null = null;
  for (const value of values) {
    // A text value is named by its object id, which is the id of the op that made it; a plain string carries its op id.
    const opId = value[0] === "text" ? (value[1] as string) : value[0] === "str" ? (value[2] as string) : null;
    if (opId === null) continue;
    const at = opId.indexOf("@");
    const counter = Number(opId.slice(0, at));
    if (opId.slice(at + 1) !== actor || (best && best.counter >= counter)) continue;
    best = value[0] === "text" ? { counter, objectId: opId } : { counter, text: value[1] as string };
  }
  return best;
}

/** The index of the change holding op `counter` (changes are in seq order, so their op ranges ascend); -1 if none. */
function changeAt(changes: readonly ChangeMeta[], counter: number): number {
  let lo = 0;
  let hi = changes.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (changes[mid].startOp > counter) hi = mid - 1;
    else if (changes[mid].maxOp < counter) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** True for a change that records a name and nothing else a reader sees (the editor's own record of the name). */
function recordsNameOnly(doc: A.Doc<unknown>, meta: ChangeMeta, authorsId: string): boolean {
  if (meta.maxOp - meta.startOp + 1 > MAX_NAME_RECORD_OPS) return false;
  const ops = A.inspectChange(doc, meta.hash)?.ops ?? [];
  const made = new Set<string>();
  return ops.every((op, i) => {
    const allowed =
      op.obj === authorsId ||
      made.has(op.obj) ||
      (op.obj === "_root" && (op.key === "updatedAt" || op.key === "authors"));
    if (allowed && op.action.startsWith("make")) made.add(`${meta.startOp + i}@${meta.actor}`);
    return allowed;
  });
}
