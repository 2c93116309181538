/** The headings of the open document; clicking one moves the caret there and scrolls the editor to it. */
import { EditorSelection } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { useStore } from "zustand";
import { useServices } from "../state/app-services.js";

export function OutlinePanel() {
  const { editor } = useServices();
  const outline = useStore(editor, (s) => s.outline);
  return (
    <section className="side-panel outline" aria-label="Outline">
      <h2 className="panel-heading">Outline</h2>
      {outline.length === 0 ? (
        <p className="panel-empty">Headings you write appear here.</p>
      ) : (
        <ul className="outline-list">
          {outline.map((entry, i) => (
            <li key={`${entry.from}-${i}`} style={{ paddingLeft: `${(entry.level - 1) * 12}px` }}>
              <button
                type="button"
                className={`outline-item level-${entry.level}`}
                onClick={() => {
                  const view = editor.getState().view;
                  if (!view) return;
                  const pos = Math.min(entry.from, view.state.doc.length);
                  view.dispatch({
                    selection: EditorSelection.cursor(pos),
                    effects: EditorView.scrollIntoView(pos, { y: "start", yMargin: 24 }),
                  });
                  view.focus();
                }}
              >
                {entry.text || "(empty heading)"}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
