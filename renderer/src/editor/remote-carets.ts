/**
 * Other people's carets and selections inside CodeMirror, each labelled with the person's name in their colour.
 * The positions come from presence (see presence.ts) and are mapped through local edits until the next update, so a
 * caret never points past the end of the text. A name label shows while its person moves or types, then fades after
 * REMOTE_CARET_LABEL_MS, so it does not sit over the line above for as long as they stay (UX audit); the caret and
 * its colour stay.
 */
import { StateEffect, StateField, type Extension, type Range } from "@codemirror/state";
import { Decoration, EditorView, WidgetType, type DecorationSet } from "@codemirror/view";

export interface RemoteCaret {
  peerId: string;
  name: string;
  color: string;
  anchor: number;
  head: number;
}

/** How long a caret's name label stays after its person last moved (the label then fades out). */
export const REMOTE_CARET_LABEL_MS = 3000;

export const setRemoteCarets = StateEffect.define<RemoteCaret[]>();

/**
 * A caret as shown: `moves` counts the reports that put it somewhere other than where it was shown (each one shows the
 * label again). Compared with the shown position, which follows edits: text typed here before a caret moves it without
 * its person moving, and the next report (which says the same place) is no move.
 */
interface ShownCaret extends RemoteCaret {
  moves: number;
}

class CaretWidget extends WidgetType {
  constructor(readonly name: string, readonly color: string, readonly moves: number) {
    super();
  }
  // A new move makes a new element, which restarts the label's fade; a caret only mapped through edits keeps its own.
  override eq(other: CaretWidget) {
    return other.name === this.name && other.color === this.color && other.moves === this.moves;
  }
  toDOM() {
    const caret = document.createElement("span");
    caret.className = "cm-remote-caret";
    caret.style.borderLeftColor = this.color;
    caret.setAttribute("aria-hidden", "true");
    const label = document.createElement("span");
    label.className = "cm-remote-caret-label";
    label.style.backgroundColor = this.color;
    label.textContent = this.name;
    label.style.animationDelay = `${REMOTE_CARET_LABEL_MS}ms`;
    caret.appendChild(label);
    return caret;
  }
  override ignoreEvent() {
    return true;
  }
}

function clamp(pos: number, length: number) {
  return Math.max(0, Math.min(length, pos));
}

// Invariant: carets in the field are always within the document (clamped when set, then mapped through changes).
function decorate(carets: ShownCaret[]): DecorationSet {
  const ranges: Range<Decoration>[] = [];
  for (const { anchor, head, ...caret } of carets) {
    const from = Math.min(anchor, head);
    const to = Math.max(anchor, head);
    if (to > from) {
      ranges.push(
        Decoration.mark({ class: "cm-remote-selection", attributes: { style: `background-color: ${caret.color}33` } }).range(from, to),
      );
    }
    ranges.push(Decoration.widget({ widget: new CaretWidget(caret.name, caret.color, caret.moves), side: 1 }).range(head));
  }
  return Decoration.set(ranges, true);
}

export const remoteCaretsField = StateField.define<ShownCaret[]>({
  create: () => [],
  update(carets, tr) {
    const length = tr.state.doc.length;
    for (const effect of tr.effects) {
      if (effect.is(setRemoteCarets)) {
        const before = new Map(carets.map((c) => [c.peerId, c]));
        return effect.value.map((c) => {
          const anchor = clamp(c.anchor, length);
          const head = clamp(c.head, length);
          const last = before.get(c.peerId);
          const moves = last ? last.moves + (last.anchor !== anchor || last.head !== head ? 1 : 0) : 0;
          return { ...c, anchor, head, moves };
        });
      }
    }
    if (!tr.docChanged) return carets;
    return carets.map((c) => ({ ...c, anchor: tr.changes.mapPos(c.anchor), head: tr.changes.mapPos(c.head) }));
  },
  provide: (field) => EditorView.decorations.from(field, (carets) => (carets.length ? decorate(carets) : Decoration.none)),
});

export const remoteCarets: Extension = remoteCaretsField;
