/**
 * Other people's carets and selections inside CodeMirror, each labelled with the person's name in their colour.
 * The positions come from presence (see presence.ts) and are mapped through local edits until the next update, so a
 * caret never points past the end of the text.
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

export const setRemoteCarets = StateEffect.define<RemoteCaret[]>();

class CaretWidget extends WidgetType {
  constructor(readonly name: string, readonly color: string) {
    super();
  }
  override eq(other: CaretWidget) {
    return other.name === this.name && other.color === this.color;
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
function decorate(carets: RemoteCaret[]): DecorationSet {
  const ranges: Range<Decoration>[] = [];
  for (const { anchor, head, ...caret } of carets) {
    const from = Math.min(anchor, head);
    const to = Math.max(anchor, head);
    if (to > from) {
      ranges.push(
        Decoration.mark({ class: "cm-remote-selection", attributes: { style: `background-color: ${caret.color}33` } }).range(from, to),
      );
    }
    ranges.push(Decoration.widget({ widget: new CaretWidget(caret.name, caret.color), side: 1 }).range(head));
  }
  return Decoration.set(ranges, true);
}

export const remoteCaretsField = StateField.define<RemoteCaret[]>({
  create: () => [],
  update(carets, tr) {
    const length = tr.state.doc.length;
    for (const effect of tr.effects) {
      if (effect.is(setRemoteCarets)) return effect.value.map((c) => ({ ...c, anchor: clamp(c.anchor, length), head: clamp(c.head, length) }));
    }
    if (!tr.docChanged) return carets;
    return carets.map((c) => ({ ...c, anchor: tr.changes.mapPos(c.anchor), head: tr.changes.mapPos(c.head) }));
  },
  provide: (field) => EditorView.decorations.from(field, (carets) => (carets.length ? decorate(carets) : Decoration.none)),
});

export const remoteCarets: Extension = remoteCaretsField;
