/**
 * Change marks in the plan editor (issue #26): when a Planner edit arrives, what it did is shown where it did it, in
 * every window that has the plan open: text it added tinted and underlined (an <ins>), text it removed struck through
 * at its old place (a <del> ghost: inline for part of a line, as lines of their own for whole lines), a block it moved
 * outlined where it is now with a small "moved" marker where it was. Each mark says what it is in words (title, and
 * aria-label on the ghosts). They stay PLANNER_CHANGE_MARK_SHOW_MS, fade over PLANNER_CHANGE_MARK_FADE_MS (no
 * animation under prefers-reduced-motion, styles.css) and are gone.
 *
 * The marks come with the mirror's update that brought the edit (mirror/change-marks.ts, made once from that change
 * in the replica, never by diffing the body), already at this editor's positions; here they are only kept, mapped
 * through every later transaction and drawn.
 * What must stay true: marks are decorations only, never text in the document (a ghost is a widget: not copied, not
 * sent, not saved); text anyone types inside a marked range afterwards is cut out of the mark, so a person's own
 * typing is never shown as the Planner's; every mark goes once its time is up, animated or not.
 */
import { StateEffect, StateField, type EditorState, type Extension, type Range, type Text } from "@codemirror/state";
import { Decoration, EditorView, ViewPlugin, WidgetType, type DecorationSet, type ViewUpdate } from "@codemirror/view";
import { PLANNER_CHANGE_MARK_FADE_MS, PLANNER_CHANGE_MARK_SHOW_MS } from "../limits.js";
import { mapMarks, plannerMarksArrived, type ChangeMark, type MoveDirection } from "../mirror/change-marks.js";

export const ADDED_TITLE = "Added by the Planner";
export const REMOVED_TITLE = "Removed by the Planner";
export const movedTitle = (direction: MoveDirection) => `Moved ${direction} by the Planner`;
export const movedFromTitle = (direction: MoveDirection) => `Moved from here by the Planner (now ${direction === "down" ? "below" : "above"})`;

export interface PlannerChangeMarksOptions {
  /** Runs `run` after `ms`, returning a cancel; setTimeout by default (tests pass their own clock). */
  schedule?: (run: () => void, ms: number) => () => void;
}

/** The marks one Planner edit brought: shown, then fading, then dropped together. */
interface Batch {
  id: number;
  marks: ChangeMark[];
  fading: boolean;
}

interface MarksState {
  batches: Batch[];
  next: number;
  decorations: DecorationSet;
}

const fadeBatch = StateEffect.define<number>();
const dropBatch = StateEffect.define<number>();

const EMPTY: MarksState = { batches: [], next: 0, decorations: Decoration.none };

export const plannerChangeMarksField = StateField.define<MarksState>({
  create: () => EMPTY,
  update(value, tr) {
    let { batches, next } = value;
    const before = batches;
    // Marks already shown follow the edit; marks arriving with it are at its new positions already (collab mapped them).
    if (tr.docChanged && batches.length > 0) {
      batches = batches.map((batch) => ({ ...batch, marks: mapMarks(batch.marks, tr.changes) }));
    }
    for (const effect of tr.effects) {
      if (effect.is(plannerMarksArrived) && effect.value.length > 0) batches = [...batches, { id: next++, marks: [...effect.value], fading: false }];
      else if (effect.is(fadeBatch)) batches = batches.map((batch) => (batch.id === effect.value ? { ...batch, fading: true } : batch));
      else if (effect.is(dropBatch)) batches = batches.filter((batch) => batch.id !== effect.value);
    }
    if (batches === before) return value;
    return { batches, next, decorations: decorate(batches, tr.state.doc) };
  },
  // Block widgets (removed lines) must come from a state field, not a view plugin.
  provide: (field) => EditorView.decorations.from(field, (value) => value.decorations),
});

/** The marks now in the editor, each with whether it is fading (for tests and the counters of what is shown). */
export function shownPlannerMarks(state: EditorState): { mark: ChangeMark; fading: boolean }[] {
  return (state.field(plannerChangeMarksField, false)?.batches ?? []).flatMap((batch) => batch.marks.map((mark) => ({ mark, fading: batch.fading })));
}

export function plannerChangeMarks(options: PlannerChangeMarksOptions = {}): Extension {
  const schedule =
    options.schedule ??
    ((run: () => void, ms: number) => {
      const timer = setTimeout(run, ms);
      return () => clearTimeout(timer);
    });
  const timers = ViewPlugin.define((view) => {
    const cancels = new Map<number, (() => void)[]>();
    const follow = (state: EditorState) => {
      const live = new Set<number>();
      for (const { id } of state.field(plannerChangeMarksField).batches) {
        live.add(id);
        if (cancels.has(id)) continue;
        cancels.set(id, [
          schedule(() => view.dispatch({ effects: fadeBatch.of(id) }), PLANNER_CHANGE_MARK_SHOW_MS),
          schedule(() => view.dispatch({ effects: dropBatch.of(id) }), PLANNER_CHANGE_MARK_SHOW_MS + PLANNER_CHANGE_MARK_FADE_MS),
        ]);
      }
      for (const id of [...cancels.keys()]) if (!live.has(id)) cancels.delete(id);
    };
    follow(view.state);
    return {
      update(update: ViewUpdate) {
        if (update.state.field(plannerChangeMarksField) !== update.startState.field(plannerChangeMarksField)) follow(update.state);
      },
      destroy() {
        for (const cancel of [...cancels.values()].flat()) cancel();
        cancels.clear();
      },
    };
  });
  return [plannerChangeMarksField, timers];
}

function decorate(batches: Batch[], doc: Text): DecorationSet {
  const ranges: Range<Decoration>[] = [];
  for (const { marks, fading } of batches) {
    const state = fading ? " is-fading" : "";
    const attributes = (title: string): Record<string, string> => (fading ? { title, style: `animation-duration: ${PLANNER_CHANGE_MARK_FADE_MS}ms` } : { title });
    for (const mark of marks) {
      if (mark.kind === "added") {
        ranges.push(Decoration.mark({ tagName: "ins", class: `cm-planner-mark cm-planner-added${state}`, attributes: attributes(ADDED_TITLE) }).range(mark.from, mark.to));
      } else if (mark.kind === "moved") {
        ranges.push(Decoration.mark({ class: `cm-planner-mark cm-planner-moved${state}`, attributes: attributes(movedTitle(mark.direction)) }).range(mark.from, mark.to));
      } else if (mark.kind === "removed") {
        ranges.push(placed((block) => new RemovedText(mark.text, mark.cut, block, fading), mark.at, mark.lines, doc));
      } else {
        ranges.push(placed((block) => new MovedFrom(mark.direction, block, fading), mark.at, true, doc));
      }
    }
  }
  return Decoration.set(ranges, true);
}

/**
 * A ghost at `at`: lines (removed lines, where a moved block was) as lines of their own, above the line `at` starts or
 * else below the line it is in; anything else inline, before any text inserted at the same place.
 */
function placed(widget: (block: boolean) => WidgetType, at: number, lines: boolean, doc: Text): Range<Decoration> {
  const line = doc.lineAt(at);
  if (lines && at === line.from) return Decoration.widget({ widget: widget(true), block: true, side: -1 }).range(at);
  if (lines) return Decoration.widget({ widget: widget(true), block: true, side: 1 }).range(line.to);
  return Decoration.widget({ widget: widget(false), side: -1 }).range(at);
}

function fadingStyle(element: HTMLElement, fading: boolean): void {
  if (!fading) return;
  element.classList.add("is-fading");
  element.style.animationDuration = `${PLANNER_CHANGE_MARK_FADE_MS}ms`;
}

class RemovedText extends WidgetType {
  constructor(
    readonly text: string,
    readonly cut: boolean,
    readonly block: boolean,
    readonly fading: boolean,
  ) {
    super();
  }
  override eq(other: RemovedText): boolean {
    return other.text === this.text && other.cut === this.cut && other.block === this.block && other.fading === this.fading;
  }
  override toDOM(): HTMLElement {
    const shown = this.cut ? `${this.text}…` : this.text;
    const ghost = document.createElement(this.block ? "div" : "span");
    ghost.className = `cm-planner-mark cm-planner-removed${this.block ? " is-block" : ""}`;
    ghost.title = REMOVED_TITLE;
    ghost.setAttribute("aria-label", `${REMOVED_TITLE}: ${shown}`);
    const del = document.createElement("del");
    del.textContent = shown;
    ghost.append(del);
    fadingStyle(ghost, this.fading);
    return ghost;
  }
  override ignoreEvent(): boolean {
    return true;
  }
}

class MovedFrom extends WidgetType {
  constructor(
    readonly direction: MoveDirection,
    readonly block: boolean,
    readonly fading: boolean,
  ) {
    super();
  }
  override eq(other: MovedFrom): boolean {
    return other.direction === this.direction && other.block === this.block && other.fading === this.fading;
  }
  override toDOM(): HTMLElement {
    const marker = document.createElement(this.block ? "div" : "span");
    marker.className = `cm-planner-mark cm-planner-moved-from${this.block ? " is-block" : ""}`;
    marker.title = movedFromTitle(this.direction);
    marker.setAttribute("role", "img");
    marker.setAttribute("aria-label", movedFromTitle(this.direction));
    marker.textContent = this.direction === "down" ? "Moved ↓" : "Moved ↑";
    fadingStyle(marker, this.fading);
    return marker;
  }
  override ignoreEvent(): boolean {
    return true;
  }
}
