/**
 * Change marks: what one Planner edit did to a plan's body, as places in the text (issue #26). Text it inserted is
 * "added"; text it took out is "removed" (kept here so the editor can show it struck through where it was, though the
 * body no longer has it); a block it took out in one place and put back, the same text, in another (edit_plan's move
 * is a delete and an insert of the block's Markdown) is "moved" where it is now and "moved-from" where it was.
 *
 * Pure, and made from the edit alone (a ChangeSet over the text before it), never from a diff of the whole body: the
 * replica's text authority makes them once per Planner change (planner-edit-marks.ts), and the editor maps them
 * through every later edit (a StateEffect's map, which @codemirror/collab applies over updates and unconfirmed typing).
 *
 * What must stay true: positions are in the text after the edit, then after each edit they were mapped through;
 * mapping never lets text someone else inserted into a marked range (a person typing inside the Planner's sentence)
 * count as the Planner's, it cuts the range around it; a mark whose place was deleted goes.
 */
import { ChangeSet, MapMode, StateEffect, type ChangeDesc } from "@codemirror/state";
import { MAX_PLANNER_CHANGE_MARKS, PLANNER_REMOVED_TEXT_SHOWN_CHARS } from "../limits.js";

export type MoveDirection = "up" | "down";

export type ChangeMark =
  | { kind: "added"; from: number; to: number }
  /** A moved block where it is now; `direction` is where it went from where it was. */
  | { kind: "moved"; from: number; to: number; direction: MoveDirection }
  /**
   * Text taken out at `at`: its first PLANNER_REMOVED_TEXT_SHOWN_CHARS, without the line breaks at its ends (`cut` when
   * more was removed); `lines` when it spanned a line break, so it is shown as lines of its own.
   */
  | { kind: "removed"; at: number; text: string; lines: boolean; cut: boolean }
  /** Where a moved block was. */
  | { kind: "moved-from"; at: number; direction: MoveDirection };

interface Removal {
  region: number;
  at: number;
  text: string;
}
interface Insertion {
  region: number;
  from: number;
  to: number;
  text: string;
}

/** The marks of `edit` (a ChangeSet over `before`), in the text after it, in order, at most MAX_PLANNER_CHANGE_MARKS. */
export function marksOfEdit(before: string, edit: ChangeSet): ChangeMark[] {
  const removals: Removal[] = [];
  const insertions: Insertion[] = [];
  let region = 0;
  edit.iterChanges((fromA, toA, fromB, toB, inserted) => {
    if (toA > fromA) removals.push({ region, at: fromB, text: before.slice(fromA, toA) });
    if (toB > fromB) insertions.push({ region, from: fromB, to: toB, text: inserted.toString() });
    region += 1;
  });

  // A move: a removed and an inserted block of the same text (ignoring the blank lines around them) in two places.
  const removedBlocks = new Map<string, Removal[]>();
  for (const removal of removals) {
    const key = blockKey(removal.text);
    if (key !== null) removedBlocks.set(key, [...(removedBlocks.get(key) ?? []), removal]);
  }
  const movedFrom = new Map<Removal, MoveDirection>();
  const marks: ChangeMark[] = [];
  for (const insertion of insertions) {
    const key = blockKey(insertion.text);
    const candidates = key === null ? [] : (removedBlocks.get(key) ?? []);
    const origin = candidates.find((removal) => removal.region !== insertion.region && !movedFrom.has(removal));
    const { from, to } = trimmedRange(insertion, origin ? /\s/ : /\n/);
    if (from >= to || insertion.text.trim() === "") continue;
    if (origin) {
      const direction: MoveDirection = insertion.from > origin.at ? "down" : "up";
      movedFrom.set(origin, direction);
      marks.push({ kind: "moved", from, to, direction });
    } else {
      marks.push({ kind: "added", from, to });
    }
  }
  for (const removal of removals) {
    const direction = movedFrom.get(removal);
    if (direction) {
      marks.push({ kind: "moved-from", at: removal.at, direction });
      continue;
    }
    const shown = removal.text.replace(/^\n+|\n+$/g, "");
    if (shown.trim() === "") continue;
    const cut = shown.length > PLANNER_REMOVED_TEXT_SHOWN_CHARS;
    marks.push({ kind: "removed", at: removal.at, text: cut ? shown.slice(0, PLANNER_REMOVED_TEXT_SHOWN_CHARS) : shown, lines: removal.text.includes("\n"), cut });
  }
  return marks.sort((a, b) => startOf(a) - startOf(b)).slice(0, MAX_PLANNER_CHANGE_MARKS);
}

/** `marks` through `changes` (an edit made after them): ranges cut around inserted text, deleted places dropped. */
export function mapMarks(marks: readonly ChangeMark[], changes: ChangeDesc): ChangeMark[] {
  if (changes.empty) return [...marks];
  const inserted: [number, number][] = [];
  changes.iterChangedRanges((_fromA, _toA, fromB, toB) => {
    if (toB > fromB) inserted.push([fromB, toB]);
  });
  const mapped: ChangeMark[] = [];
  for (const mark of marks) {
    if (mark.kind === "added" || mark.kind === "moved") {
      // Text inserted right at either end stays outside (assoc away from the range); inside, it is cut out.
      let from = changes.mapPos(mark.from, 1);
      const to = changes.mapPos(mark.to, -1);
      for (const [insertFrom, insertTo] of inserted) {
        if (insertTo <= from || insertFrom >= to) continue;
        if (insertFrom > from) mapped.push({ ...mark, from, to: insertFrom });
        from = Math.max(from, insertTo);
      }
      if (to > from) mapped.push({ ...mark, from, to });
    } else {
      const at = changes.mapPos(mark.at, -1, MapMode.TrackDel);
      if (at !== null) mapped.push({ ...mark, at });
    }
  }
  return mapped;
}

/**
 * The Planner marks one update brought, in the text after that update. The editor mirror adds it to the update it
 * came with; collab maps it over later updates and this editor's unconfirmed edits (its positions then are the
 * editor's own), and the editor's change marks take it (editor/planner-change-marks.ts).
 */
export const plannerMarksArrived = StateEffect.define<readonly ChangeMark[]>({
  map: (marks, changes) => {
    const mapped = mapMarks(marks, changes);
    return mapped.length > 0 ? mapped : undefined;
  },
});

/** Marks as they came over a message port, kept only when well-formed and inside a text of `length`. */
export function checkedMarks(raw: unknown, length: number): ChangeMark[] {
  if (!Array.isArray(raw)) return [];
  const at = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= length;
  const direction = (d: unknown): d is MoveDirection => d === "up" || d === "down";
  return raw.filter((m): m is ChangeMark => {
    if (typeof m !== "object" || m === null) return false;
    const mark = m as Record<string, unknown>;
    switch (mark.kind) {
      case "added":
        return at(mark.from) && at(mark.to) && mark.from < mark.to;
      case "moved":
        return at(mark.from) && at(mark.to) && mark.from < mark.to && direction(mark.direction);
      case "removed":
        return at(mark.at) && typeof mark.text === "string" && typeof mark.lines === "boolean" && typeof mark.cut === "boolean";
      case "moved-from":
        return at(mark.at) && direction(mark.direction);
      default:
        return false;
    }
  });
}

function startOf(mark: ChangeMark): number {
  return mark.kind === "added" || mark.kind === "moved" ? mark.from : mark.at;
}

/** A block's text for matching a move: only text that spans a line break counts (a block, not a word), trimmed. */
function blockKey(text: string): string | null {
  const trimmed = text.trim();
  return trimmed !== "" && text.includes("\n") ? trimmed : null;
}

/** The insertion without the characters matching `edge` at its ends. */
function trimmedRange(insertion: Insertion, edge: RegExp): { from: number; to: number } {
  let from = insertion.from;
  let to = insertion.to;
  const text = insertion.text;
  while (from < to && edge.test(text[from - insertion.from])) from += 1;
  while (to > from && edge.test(text[to - 1 - insertion.from])) to -= 1;
  return { from, to };
}
